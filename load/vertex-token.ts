// An integration token for the custom-block API (spec §6.1), when the runner drives its own simulator: a one-shot
// listener stands in for the block's external service, and starting a dialog on the custom-block bot makes the
// simulator call it with a token. Against a real target, VERTEX_TOKEN comes from the environment instead.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findToken } from '../contract/callback-inbox.ts';

export interface TokenListener {
  /** The URL to give the simulator as the custom block's URL. */
  url: string;
  /** The first token delivered; rejects after `timeoutMs`. */
  token(timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

export async function listenForToken(): Promise<TokenListener> {
  let deliver: (token: string) => void = () => {};
  const delivered = new Promise<string>((resolve) => (deliver = resolve));
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      try {
        const found = findToken(JSON.parse(body));
        if (found) deliver(found.token);
      } catch {
        // not JSON: not the call we wait for
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
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
