// The accepted range of PageNumber and PageCount (spec §4.1, §8.3: not shown): what 0 and a negative value do.
import { eachRun, test } from '../fixtures/probe-test.ts';
import type { Json } from '../../lib/json.ts';

const PARAMETERS = [
  { name: 'PageNumber', echo: 'current_page', section: '4.1' },
  { name: 'PageCount', echo: 'per_page', section: '8.3' },
] as const;

eachRun(() => {
  for (const { name, echo, section } of PARAMETERS) {
    test(`records how the V2 list answers ${name} 0 and -1`, async ({ api, config, probe, observe }) => {
      probe(2, `the accepted range of ${name}`, { observations: [`paging.${name}.out-of-range`] });
      const seen: Record<string, Json> = {};
      for (const value of [0, -1]) {
        const res = await api.call('getV2Conversations', { query: { BotID: config.botId, PageCount: 1, [name]: value } });
        const pagination = res.json<{ meta?: { pagination?: Record<string, Json> } }>()?.meta?.pagination;
        seen[String(value)] = { status: res.status, [echo]: pagination?.[echo] ?? null };
      }
      observe('getV2Conversations', { id: `paging.${name}.out-of-range`, section, item: `${name} 0 and -1: status, and the ${echo} answered`, observed: seen });
    });
  }
});
