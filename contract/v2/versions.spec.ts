// V1 and V2 read the same existing dialogs alike (spec §1.6, §2.2). The create tests compare new dialogs, which
// have no history yet (V2 may give "" for updated); dialogs of the sample window have a last message and a
// duration, so every shared field is compared there.
import { eachRun, test } from '../fixtures/api-test.ts';
import { judge } from '../judging/matchers.ts';
import { fetchPages, sampleQuery, searchPageCount, type ListItem } from '../api/lists.ts';
import { expectVersionsAgree } from '../api/versions.ts';

const PAIRS = 5;

/** The V1 twin of a V2 item: the one V1 item with its name, else the one with its ip and location. */
function twinOf(item: ListItem, v1: readonly ListItem[]): ListItem | undefined {
  const only = (hits: ListItem[]) => (hits.length === 1 ? hits[0] : undefined);
  return only(v1.filter((i) => i.name === item.name)) ?? only(v1.filter((i) => i.ip === item.ip && i.location === item.location));
}

eachRun(() => {
  test('V1 and V2 read the dialogs of the sample window alike', async ({ api, config, precondition }) => {
    const query = { ...sampleQuery(config, config.botId), PageCount: searchPageCount() };
    const v1Pages = await fetchPages(api, 'v1', query, 5);
    const v1 = v1Pages.flatMap((p) => p.items);
    const v2Pages = await fetchPages(api, 'v2', query, 5);
    const v2 = v2Pages.flatMap((p) => p.items);
    precondition(v2.length > 0, `no dialog of bot ${config.botId} in the sample window (SAMPLE_CREATED_FROM/TO) to compare`);
    const pairs = v2.flatMap((item) => {
      const twin = twinOf(item, v1);
      return twin ? [{ item, twin }] : [];
    });
    // Only the whole V1 list must hold the V2 dialogs: which dialogs come first is not stated (§2.3, lists.order).
    const wholeV1 = v1.length >= (v1Pages[0]?.pagination?.total ?? Infinity);
    precondition(
      wholeV1 || pairs.length > 0,
      `the first ${v1.length} of the window's dialogs share none between V1 and V2 (list order is not stated, §2.3): narrow SAMPLE_CREATED_FROM/TO to fewer than 200 dialogs`,
    );
    judge(
      v1Pages[0]!.response,
      'versions_agree.same_dialogs',
      { pairs: pairs.length, v1Items: v1.length, v2Items: v2.length },
      { against: v2Pages[0]!.response },
    );
    // Dialogs with a last message first: their updated is a time in both versions, so it is compared as well.
    const chosen = [...pairs].sort((a, b) => Number(a.item.updated === '') - Number(b.item.updated === '')).slice(0, PAIRS);
    for (const { item, twin } of chosen) await expectVersionsAgree(api, Number(twin.id), String(item.id));
  });
});
