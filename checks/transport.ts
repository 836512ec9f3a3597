// What an answer must carry whole, and what a service on the other side must do: a file download returns the file
// itself (non-empty, and the same bytes for the same fileId), an answer's body comes whole, and a dialog reaching a
// custom block calls the block's URL. Pure.
import { showValue } from '../lib/failure.ts';
import type { Json } from '../lib/json.ts';
import { defineCheck } from './check.ts';

export const fileBytes = defineCheck({
  name: 'file_content',
  sections: ['4.1'],
  severity: 'high',
  statement: 'a file download answered 200 returns the file itself: non-empty bytes',
  evidence: 'exchange',
  places: ['body'],
  judge: ({ bytes }: { bytes: number }) => [{ at: 'body', holds: bytes > 0, expected: '"bytes"', observed: showValue(bytes > 0 ? 'bytes' : 'an empty body') }],
});

/** Two byte strings alike, without Node's Buffer (k6 has none). */
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

export const sameFile = defineCheck({
  name: 'file_content.same_file',
  sections: ['2.6', '4.1'],
  severity: 'high',
  statement: 'a fileId addresses one file: downloaded again, it returns the same bytes',
  evidence: 'series',
  places: ['body (same file twice)'],
  judge: ({ fileId, first, again }: { fileId: unknown; first: Uint8Array; again: Uint8Array }) => [
    {
      at: 'body (same file twice)',
      holds: sameBytes(first, again),
      expected: '"the same bytes"',
      observed: showValue(sameBytes(first, again) ? 'the same bytes' : 'other bytes'),
      details: { fileId: fileId as Json, firstBytes: first.length, againBytes: again.length },
    },
  ],
});

export const completeBody = defineCheck({
  name: 'complete_body',
  sections: ['7'],
  severity: 'high',
  statement: 'an answer carries the whole body it announces (RFC 9112 §6.3)',
  evidence: 'exchange',
  places: ['body (incomplete)'],
  judge: ({ whole, reason }: { whole: boolean; reason: string }) => [
    {
      at: 'body (incomplete)',
      holds: whole,
      expected: 'the whole body the answer announces (RFC 9112 §6.3)',
      observed: showValue(whole ? 'the whole body' : 'the body broke off'),
      details: { reason },
    },
  ],
});

export const customBlockCall = defineCheck({
  name: 'custom_block_call',
  sections: ['6.1'],
  severity: 'high',
  statement: 'a dialog reaching a custom block makes the service call the block URL with an integration token',
  evidence: 'write',
  places: ['the call'],
  // `tokenLike`: whether the call carried any value that could be a token (a field named so, a bearer, or text no
  // number or UUID is): where it is, is not shown (§6.1); that one came at all, is said (§1.5).
  judge: ({ called, tokenLike = called, bot, waitedSeconds }: { called: boolean; tokenLike?: boolean; bot: number; waitedSeconds: number }) => [
    {
      at: 'the call',
      holds: called && tokenLike,
      expected: "a call to the block URL with an integration token (check that the block's URL is CALLBACK_PUBLIC_URL and reaches CALLBACK_HOST:CALLBACK_PORT)",
      observed: showValue(!called ? 'no call' : tokenLike ? 'a call' : 'a call with nothing that could be a token'),
      details: { bot, waited: `${waitedSeconds} s (CALLBACK_TIMEOUT_S)` },
    },
  ],
});
