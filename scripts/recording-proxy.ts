// A recording reverse proxy, as QA puts one in front of staging: every request it is sent goes on to the target as
// it came (headers and credentials included) and every exchange is kept in a plain HAR 1.2 log, with the
// Authorization header as sent and a body that is not text in base64, as a browser's DevTools export keeps them.
// Nothing of the suite's: what `npm run judge` is proven on (scripts/judge.integration.test.ts) is a recording any client makes.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface NameValue {
  name: string;
  value: string;
}

const pairs = (headers: IncomingHttpHeaders): NameValue[] =>
  Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [value].flat().map((v) => ({ name, value: v }))));

const isText = (type: string | undefined) => /^(text\/|application\/([\w.+-]*json|xml|x-www-form-urlencoded))/i.test(type ?? '');

export interface RecordingProxy {
  /** Base URL without /api, as API_BASE_URL takes it. */
  url: string;
  /** The exchanges so far, as a HAR 1.2 log. */
  har(): { log: { version: '1.2'; creator: { name: string; version: string }; entries: object[] } };
  close(): Promise<void>;
}

/** A proxy on a free loopback port in front of `target` (a base URL), recording every exchange. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const entries: object[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const started = new Date();
    const sent: Buffer[] = [];
    req.on('data', (c: Buffer) => sent.push(c));
    req.on('end', () => {
      const body = Buffer.concat(sent);
      const out = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          const got: Buffer[] = [];
          answer.on('data', (c: Buffer) => got.push(c));
          answer.on('end', () => {
            const content = Buffer.concat(got);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(content);
            const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
            const type = answer.headers['content-type'];
            entries.push({
              startedDateTime: started.toISOString(),
              time: Date.now() - started.getTime(),
              request: {
                method: req.method,
                url: url.href,
                httpVersion: `HTTP/${req.httpVersion}`,
                cookies: [],
                headers: pairs(req.headers),
                queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
                ...(body.length ? { postData: { mimeType: req.headers['content-type'] ?? '', text: body.toString('utf8') } } : {}),
                headersSize: -1,
                bodySize: body.length,
              },
              response: {
                status: answer.statusCode,
                statusText: answer.statusMessage ?? '',
                httpVersion: `HTTP/${answer.httpVersion}`,
                cookies: [],
                headers: pairs(answer.headers),
                content: isText(type)
                  ? { size: content.length, mimeType: type ?? '', text: content.toString('utf8') }
                  : { size: content.length, mimeType: type ?? '', text: content.toString('base64'), encoding: 'base64' },
                redirectURL: '',
                headersSize: -1,
                bodySize: content.length,
              },
              cache: {},
              timings: { send: 0, wait: Date.now() - started.getTime(), receive: 0 },
            });
          });
        },
      );
      out.on('error', () => res.writeHead(502).end());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    har: () => ({ log: { version: '1.2', creator: { name: 'recording-proxy', version: '1' }, entries: [...entries] } }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
