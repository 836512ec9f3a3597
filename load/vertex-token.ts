// An integration token for the custom-block API (spec §6.1), when the runner drives its own simulator: a one-shot
// listener stands in for the block's external service, and starting a dialog on the custom-block bot makes the
// simulator call it with a token. The call's shape is not shown, so it is read as the contract suite reads it
// (http/callback-request.ts): any method, any encoding. Against a real target, VERTEX_TOKEN comes from the
// environment instead.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callFields, placeText, tokenCandidates, type RawCall } from '../http/callback-request.ts';

export interface TokenListener {
  /** The URL to give the simulator as the custom block's URL. */
  url: string;
  /** The first token delivered; rejects after `timeoutMs`, or when a call holds several candidates. */
  token(timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

async function rawCall(req: IncomingMessage): Promise<RawCall> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers, body: Buffer.concat(chunks) };
}

export async function listenForToken(): Promise<TokenListener> {
  let deliver: (token: string) => void = () => {};
  let refuse: (error: Error) => void = () => {};
  const delivered = new Promise<string>((resolve, reject) => {
    deliver = resolve;
    refuse = reject;
  });
  delivered.catch(() => {}); // read by token(); a refusal before anyone asks is no crash
  const server = createServer((req, res) => {
    rawCall(req)
      .then(callFields)
      .then((fields) => {
        const candidates = tokenCandidates(fields);
        if (candidates.length === 1) deliver(candidates[0]!.value);
        else if (candidates.length > 1) refuse(new Error(`the custom block's call holds several token candidates: ${candidates.map(placeText).join(', ')}`));
      })
      .catch((error: Error) => refuse(new Error(`the custom block's call could not be read: ${error.message}`)))
      .finally(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    token: (timeoutMs = 5000) =>
      Promise.race([
        delivered,
        new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`no custom-block call within ${timeoutMs} ms`)), timeoutMs).unref()),
      ]),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
