// Before any test: is the target there at all? One request; any HTTP answer will do (even 401), only a refused,
// unresolvable or silent host stops the run, with one line saying what to fix.
export async function unreachableReason(baseUrl: string, timeoutMs = 10_000): Promise<string | undefined> {
  try {
    await fetch(`${baseUrl}/api/v2/conversations`, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    return undefined;
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (cause?.code ?? cause?.message ?? (err as Error).message);
    return `the target ${baseUrl} cannot be reached (${why}): check API_BASE_URL, the network or VPN, and that the service is up`;
  }
}
