// The send and command bodies of a run, built from the one shape the run uses (configured or discovered,
// http/body-discovery.ts), and the variants of that shape error tests need. Pure. No test holds a body literal: a
// vendor may name and type these fields as it likes (spec §4.2: not shown).
import type { RequestShapes } from './body-discovery.ts';
import { pathText, placeholderPaths, renderBody, withValueAt, type JsonPath } from './body-template.ts';

export interface BodyVariant {
  /** What is wrong with it, in words, e.g. "$.message.text removed". */
  what: string;
  /** The JSON value to send. */
  body: unknown;
}

function placeOf(template: string, name: 'text' | 'botId'): { path: JsonPath; kind: 'string' | 'number' } {
  const found = placeholderPaths(template).find((p) => p.name === name);
  if (!found) throw new Error(`template ${template} holds no {{${name}}}`);
  return found;
}

/** Where the literal command value goto sits in a command template (spec §4.2: "the command goto"), if anywhere. */
function gotoPlace(body: unknown, path: JsonPath = []): JsonPath | undefined {
  if (typeof body === 'string') return body.toLowerCase() === 'goto' ? path : undefined;
  if (!body || typeof body !== 'object') return undefined;
  for (const [key, value] of Object.entries(body)) {
    const found = gotoPlace(value, [...path, Array.isArray(body) ? Number(key) : key]);
    if (found) return found;
  }
  return undefined;
}

export class RequestBodies {
  constructor(readonly shapes: RequestShapes) {}

  /** Why the run has no shape for send or command (the finding's one line), or undefined when it has one. */
  missing(kind: keyof RequestShapes): string | undefined {
    const finding = this.shapes[kind];
    return finding.template === null ? `no ${kind} body shape: ${finding.how}` : undefined;
  }

  private template(kind: keyof RequestShapes): string {
    const template = this.shapes[kind].template;
    if (template === null) throw new Error(this.missing(kind));
    return template;
  }

  /** The send body carrying `text`. Check missing('send') first. */
  send(text: string): Record<string, unknown> {
    return renderBody(this.template('send'), { text });
  }

  /** The command goto body naming `botId`. Check missing('command') first. */
  command(botId: number): Record<string, unknown> {
    return renderBody(this.template('command'), { botId });
  }

  /**
   * Sends that break the shape but not the JSON: what a vendor does with them is its choice (a vendor may ignore
   * what it does not read), so tests record the answers instead of asserting them.
   */
  sendLenience(text: string): BodyVariant[] {
    const body = this.send(text);
    const at = placeOf(this.template('send'), 'text').path;
    return [
      { what: `${pathText(at)} removed`, body: withValueAt(body, at, undefined) },
      { what: `${pathText(at)} a number`, body: withValueAt(body, at, 42) },
      { what: `${pathText(at)} an object`, body: withValueAt(body, at, { text }) },
      { what: 'an empty object', body: {} },
      { what: 'an array', body: [text] },
      { what: 'a JSON string', body: text },
      { what: 'null', body: null },
    ];
  }

  /** Command bodies naming no bot at all: a wrong parameter value for every vendor (spec §7: 400 or 404). */
  commandWrongBot(): BodyVariant[] {
    const { path, kind } = placeOf(this.template('command'), 'botId');
    const body = this.command(0);
    return [
      { what: `${pathText(path)} a word`, body: withValueAt(body, path, 'no-such-bot') },
      { what: `${pathText(path)} a negative number`, body: withValueAt(body, path, kind === 'string' ? '-1' : -1) },
    ];
  }

  /** Command bodies that break the shape but not the JSON: recorded, like sendLenience. */
  commandLenience(botId: number): BodyVariant[] {
    const body = this.command(botId);
    const bot = placeOf(this.template('command'), 'botId').path;
    const command = gotoPlace(body);
    return [
      { what: `${pathText(bot)} removed`, body: withValueAt(body, bot, undefined) },
      ...(command ? [{ what: `${pathText(command)} another command`, body: withValueAt(body, command, 'no-such-command') }] : []),
      { what: 'an empty object', body: {} },
    ];
  }
}
