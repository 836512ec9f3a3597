// Dialogs an operator can send to, made in setup(): created and started with POST /v2/dialog/{BotID}/create
// (response true, so the answer carries the UUID), then stopped so that an operator is connected.
import { check } from 'k6';
import exec from 'k6/execution';
import { respondents } from 'generated:data';
import { callPolitely, jsonBody } from './api.ts';
import { botId } from './config.ts';

export function prepareOperatorDialogs(count: number): string[] {
  const uuids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = callPolitely({
      operationId: 'postV2DialogCreate',
      pathParams: { BotID: botId() },
      query: { response: 'true' },
      json: { response: true, variables: JSON.stringify(respondents[i % respondents.length]) },
    });
    const body = jsonBody(created) as { dialogUUID?: unknown } | undefined;
    const uuid = typeof body?.dialogUUID === 'string' ? body.dialogUUID : '';
    if (!check(created, { 'setup: POST create answers 200 with a dialogUUID': (r) => r.status === 200 && uuid !== '' })) continue;
    const stopped = callPolitely({ operationId: 'postV2ConversationStop', pathParams: { uuid } });
    if (check(stopped, { 'setup: stop answers 204': (r) => r.status === 204 })) uuids.push(uuid);
  }
  if (uuids.length === 0) exec.test.abort('setup prepared no dialog an operator can send to: see the setup checks');
  return uuids;
}
