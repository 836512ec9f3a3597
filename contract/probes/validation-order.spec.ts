// Which is checked first when a request is wrong twice over (not stated: §7 lists both 400 and 404 for send and
// command): a body that cannot be parsed sent to a dialog that does not exist. Either answer is documented; the
// contract tests send one wrong thing at a time, so they pass whatever the order, and this records it.
import { eachRun, test } from '../fixtures/probe-test.ts';
import { unknownUuid } from '../shared/not-found.ts';

eachRun(() => {
  test('records whether send and command check the body or the dialog first', async ({ api, fake, probe, observe }) => {
    probe(2, 'the order in which send and command validate', { observations: ['validation.order'] });
    const seen: Record<string, number> = {};
    for (const operationId of ['postV2ConversationSend', 'postV2ConversationCommand'] as const) {
      const res = await api.call(operationId, { path: { uuid: unknownUuid(fake) }, raw: '{"unterminated": ' });
      seen[res.operation.label] = res.status;
    }
    observe({
      id: 'validation.order',
      section: '7',
      item: 'status for a broken body sent to a dialog that does not exist (400: body first, 404: dialog first)',
      observed: seen,
    });
  });
});
