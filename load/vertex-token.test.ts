// The runner's token listener reads the custom block's call whatever its shape (spec §6.1: not shown): a tiny local
// sender stands in for the service and calls it as a form, with a Bearer header, and with two candidate tokens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listenForToken } from './vertex-token.ts';

const TOKEN = 'Zq8hT1xVb2Lr9KmW0pYc';

/** Sends one call to a fresh listener; the token it got, or its refusal. */
async function tokenFrom(init: RequestInit): Promise<string> {
  const listener = await listenForToken();
  try {
    const answer = await fetch(listener.url, init);
    assert.equal(answer.status, 200);
    return await listener.token(2000);
  } finally {
    await listener.close();
  }
}

test('a form-encoded call delivers the token', async () => {
  const body = new URLSearchParams({ token: TOKEN, dialog_id: '1042', bot_id: '303' });
  assert.equal(await tokenFrom({ method: 'POST', body }), TOKEN);
});

test('a Bearer credential delivers the token, whatever the method and body', async () => {
  const init = {
    method: 'PUT',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ dialog: { id: 1042 } }),
  };
  assert.equal(await tokenFrom(init), TOKEN);
});

test('a call with two candidate tokens is refused, not guessed', async () => {
  const init = {
    method: 'POST',
    headers: { 'x-integration-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: 'rt-bbbbbbbbbb' }),
  };
  await assert.rejects(tokenFrom(init), /several token candidates: header x-integration-token, json \$\.refresh_token/);
});
