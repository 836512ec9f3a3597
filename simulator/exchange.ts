// What travels through one request: the Exchange (request as the handlers and drifts see it) and the Reply
// (response before it is written). Errors are thrown as HttpError and become a Reply in one place (http.ts).
import type { SuccessReply } from './config.ts';
import type { FieldWords } from './refusal-wording.ts';
import type { Dialog } from './store.ts';
import type { OperationId } from '../openapi/operations.generated.ts';

export interface Exchange {
  /** operationId of the OpenAPI document, or undefined for a path outside it. */
  operationId: OperationId | undefined;
  method: string;
  /** Path after /api, without the query. */
  path: string;
  /** Captured path parameters, in route order. */
  params: string[];
  query: URLSearchParams;
  authorization: string | undefined;
  body: Buffer;
  /** The dialog the handler resolved, for drifts that react to its state. */
  dialog?: Dialog;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** A JSON value, serialised when written. */
  json?: unknown;
  /** A payload already serialised (cached list pages, file bytes). */
  raw?: Buffer | string;
  contentType?: string;
  /**
   * An error: rendered in the configured error format with the final status, after drifts. `field`: the body field it
   * refuses, and what it says of it, for the format that names fields apart from the message.
   */
  problem?: { detail: string; field?: { path: string; says: string; words?: FieldWords } };
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** A configured body that replaces the problem (hidden limits). */
    readonly body?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

/**
 * A 400 for one body field (dotted path): `detail` says it in a sentence, `says` without the field's name; `words`, in
 * a vendor's own words (config.errors.wording), what a custom error body fills in.
 */
export class FieldError extends HttpError {
  constructor(
    readonly field: string,
    readonly says: string,
    detail: string,
    readonly words?: FieldWords,
  ) {
    super(400, detail);
  }
}

export function toReply(err: HttpError): Reply {
  const headers = err.headers;
  if (err.body !== undefined) return { status: err.status, headers, json: err.body };
  return {
    status: err.status,
    headers,
    problem: {
      detail: err.detail,
      ...(err instanceof FieldError ? { field: { path: err.field, says: err.says, ...(err.words ? { words: err.words } : {}) } } : {}),
    },
  };
}

export const jsonReply = (status: number, json: unknown): Reply => ({ status, json });
export const emptyReply = (status: number): Reply => ({ status });

/** Answers a success whose body the specification does not show, as config chose it. */
export function successReply(choice: SuccessReply, dialog: Dialog): Reply {
  switch (choice.body) {
    case 'empty':
      return emptyReply(choice.status);
    case 'empty-object':
      return jsonReply(choice.status, {});
    case 'ids-v1':
      return jsonReply(choice.status, { dialogId: dialog.uuid });
    case 'ids-v2':
      return jsonReply(choice.status, { dialogId: dialog.id, dialogUUID: dialog.uuid });
  }
}

/** JSON body of a reply as a value (parsing a pre-serialised one), for drifts that rewrite bodies. */
export function replyJson(reply: Reply): unknown {
  if (reply.json === undefined && reply.raw !== undefined && reply.contentType?.startsWith('application/json')) {
    reply.json = JSON.parse(reply.raw.toString());
    reply.raw = undefined;
  }
  return reply.json;
}
