// At most N promises at a time over a list: the contract's global setup of several runs and the scripts' tests share
// it. Pure (no Node built-in), like the rest of lib/.

/** Runs `work` over `items`, at most `size` at a time; results in the items' order. */
export async function pool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}
