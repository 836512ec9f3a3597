// Items no request can show. Recorded as such, with the reason, so the fingerprint names every "not shown" item
// and a reader sees why these have no measured value.
import { eachRun, test } from '../fixtures/probe-test.ts';

const NOT_OBSERVABLE = [
  {
    id: 'file.record',
    section: '2.6',
    item: 'fields of the file record',
    reason: 'no operation returns a file record: GET /v1/file/{fileId} returns the file itself (its content type is observation file.v1.download)',
  },
  {
    id: 'auth.issuance',
    section: '5.5',
    item: 'how login, password and integration tokens are issued, and token lifetime',
    reason:
      'credentials and integration tokens are issued outside the API (no operation issues, lists or revokes them) and Basic credentials carry no expiry; what the token of a completed block still opens is observation vertex.token.after-complete',
  },
  {
    id: 'events.webhooks',
    section: '6.2',
    item: 'webhooks, event kinds, event delivery and signatures',
    reason: "no operation registers or lists webhooks; the only call of the service the suite receives is the custom block's (observation callback.shape)",
  },
] as const;

eachRun(() => {
  for (const { id, section, item, reason } of NOT_OBSERVABLE) {
    test(`records that the ${item} cannot be observed through the API`, ({ observe }) => {
      observe({ id, section, item, observed: 'not observable through the API', evidence: reason });
    });
  }
});
