// The checks of one answer against the document, named as Schemathesis names them, and the status checks of a request
// that is wrong on purpose (ignored_auth, negative_data_rejection). Each judges one exchange with the document's
// compiled validators (openapi/validators.ts, handed in) and what the test expected of it.
import type { ContractValidators } from '../openapi/validators.ts';
import { contextValue } from '../lib/json.ts';
import type { Operation } from '../openapi/document.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import type { Failure, FailureSeverity, RequestCheck } from '../lib/failure.ts';
import { defineCheck, failuresOf, type Finding } from './check.ts';

/** An answer as the response checks read it. */
export interface ResponseToCheck {
  status: number;
  /** Value of the Content-Type header, if any. */
  contentType?: string | null;
  /** Raw body text; '' for none. */
  body: string;
  /** Value of the Content-Length header, if any: a 204 must not announce content its client will not read. */
  contentLength?: string | null;
}

/** The response checks, in the order they are made. */
export type ResponseCheck = 'not_a_server_error' | 'status_code_conformance' | 'content_type_conformance' | 'response_schema_conformance';

/** What a request must get, and why: the expectation of the test that sent it. */
export interface StatusExpectation {
  /** The status (or statuses, or any success) this request must get; unset: any the document lists. */
  status?: number | number[] | '2XX';
  /** Why, with the run's values: "for unknown dialog 6f1c…". */
  because?: string;
  /** Spec section that documents the expected status. */
  section?: string;
  /** The check the status is: a request with wrong credentials (§5.2) or wrong input (§7) names its own. */
  check?: 'status_code_conformance' | RequestCheck;
  /** The request made the body "not shown" (POST create with response=false): the status alone is checked. */
  bodyNotShown?: boolean;
  /** Failures against a learned contract (--contract-from) are `learned`; the spec's are `breaking`. */
  severity?: FailureSeverity;
  /** The checks to make (all by default): the client checks every answer for a server error alone. */
  only?: readonly ResponseCheck[];
}

/** One answer of one operation, as every response check reads it. */
export interface AnswerToCheck {
  validators: ContractValidators;
  operationId: OperationId;
  answer: ResponseToCheck;
  expectation: StatusExpectation;
}

const opOf = (a: AnswerToCheck): Operation => a.validators.operation(a.operationId);

/** The status the test expects (a set where §7 lists several), else any status the document lists. */
function statusFindings({ validators, answer, expectation: e, ...a }: AnswerToCheck): Finding[] {
  if (answer.status >= 500) return [];
  const wanted = e.status === undefined ? undefined : [e.status].flat();
  if (wanted && !wanted.some((w) => (w === '2XX' ? answer.status >= 200 && answer.status < 300 : w === answer.status))) {
    const because = e.because ? { because: e.because } : {};
    return [{ at: 'status', holds: false, expected: wanted.join(' or '), section: e.section ?? '7', observed: String(answer.status), ...because }];
  }
  const op = opOf({ validators, answer, expectation: e, ...a });
  if (validators.responseKey(op, answer.status)) return [];
  return [
    { at: 'status', holds: false, expected: `one of ${Object.keys(op.responses).join(', ')}`, section: '7', observed: `undocumented status ${answer.status}` },
  ];
}

/** The documented response of the answer's status, unless the status is undocumented or its body not checked. */
function documentedResponse(a: AnswerToCheck) {
  const op = opOf(a);
  const key = a.expectation.bodyNotShown ? undefined : a.validators.responseKey(op, a.answer.status);
  const response = key === undefined ? undefined : op.responses[key];
  if (!key || !response) return undefined;
  const section = String((response as Record<string, unknown>)['x-spec-section'] ?? op.section);
  return { key, response, section, mediaTypes: Object.keys(response.content ?? {}) };
}

/** The media type the document declares for the answer's content type (or the open "any" type of an error body). */
function declaredMediaType(mediaTypes: readonly string[], contentType: string | null | undefined): string | undefined {
  const observed = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaTypes.includes(observed) ? observed : mediaTypes.includes('*/*') ? '*/*' : undefined;
}

export const notAServerError = defineCheck({
  name: 'not_a_server_error',
  sections: ['7'],
  severity: 'critical',
  statement: 'no answer is a server error: §7 documents none',
  evidence: 'exchange',
  places: ['status'],
  judge: ({ answer }: AnswerToCheck) =>
    answer.status < 500 ? [] : [{ at: 'status', holds: false, expected: 'no server error', observed: String(answer.status) }],
});

/** A status check: the one of any answer, or the one a test names for a request wrong on purpose. */
const statusCheck = <const N extends string>(name: N, sections: readonly string[], severity: 'critical' | 'high', statement: string) =>
  defineCheck({ name, sections, severity, statement, evidence: 'exchange', places: ['status'], judge: statusFindings });

export const statusCodeConformance = statusCheck(
  'status_code_conformance',
  ['7'],
  'high',
  'the status is the one the request must get (a set where §7 lists several), else one the document lists for the operation',
);

export const ignoredAuth = statusCheck(
  'ignored_auth',
  ['5.2'],
  'critical',
  'a request without credentials or with a wrong password is answered 401, never served',
);

export const negativeDataRejection = statusCheck(
  'negative_data_rejection',
  ['7', '4.2'],
  'high',
  'a request with one parameter or body of the wrong format is refused with a status §7 lists for bad input on the operation',
);

export const contentTypeConformance = defineCheck({
  name: 'content_type_conformance',
  sections: ['4', '7'],
  severity: 'medium',
  statement: 'an answer with a documented body has a content type the document declares for it',
  evidence: 'exchange',
  places: ['content-type'],
  judge: (a: AnswerToCheck) => {
    const documented = documentedResponse(a);
    if (!documented || documented.mediaTypes.length === 0 || declaredMediaType(documented.mediaTypes, a.answer.contentType)) return [];
    const observed = (a.answer.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    return [
      {
        at: 'content-type',
        holds: false,
        expected: `content type ${documented.mediaTypes.join(' or ')}`,
        section: documented.section,
        observed: observed ? `content type ${observed}` : 'no content type',
      },
    ];
  },
});

export const responseSchemaConformance = defineCheck({
  name: 'response_schema_conformance',
  sections: ['2', '7'],
  severity: 'high',
  statement: 'the body is what the document describes for the status: the fields and types of §2, an empty body where none is documented',
  evidence: 'exchange',
  judge: (a: AnswerToCheck) => {
    const documented = documentedResponse(a);
    if (!documented) return [];
    const { key, response, section, mediaTypes } = documented;
    const { answer } = a;
    const body = (p: Pick<Finding, 'expected' | 'observed' | 'section'> & { value?: unknown }): Finding => ({
      at: 'body',
      holds: false,
      expected: p.expected,
      observed: p.observed,
      ...(p.section ? { section: p.section } : {}),
      ...(p.value === undefined ? {} : { value: contextValue(p.value) }),
    });
    if (mediaTypes.length === 0) {
      // No content declared: an empty body is documented (204), unless the body is marked "not shown".
      if ((response as Record<string, unknown>)['x-unknown']) return [];
      // HTTP clients do not read the body of a 204 (RFC 9110 §15.3.5): one the server announces shows in its length.
      const announced = Number(answer.contentLength ?? 0);
      if (answer.body.length === 0 && !(announced > 0)) return [];
      const expected = `an empty body for ${answer.status}`;
      const seen = answer.body.length > 0 ? { observed: 'a body', value: answer.body } : { observed: 'a Content-Length', value: announced };
      return [body({ expected, section: '7', ...seen })];
    }
    const mediaType = declaredMediaType(mediaTypes, answer.contentType);
    // Another content type is content_type_conformance's; the document leaves a */* body open (the probes observe it).
    if (!mediaType || mediaType === '*/*') return [];
    // A JSON media type's schema describes the parsed body; any other's (text/plain) the body as a string.
    let parsed: unknown = answer.body;
    if (/^application\/([\w.-]+\+)?json$/.test(mediaType)) {
      try {
        parsed = JSON.parse(answer.body);
      } catch {
        return [body({ expected: 'a JSON body', section, observed: 'a body that is not JSON', value: answer.body })];
      }
    }
    const validate = a.validators.validator(a.operationId, key, mediaType);
    if (validate(parsed)) return [];
    return a.validators.explain(parsed, validate.errors ?? []).map(({ pointer, section: own, ...place }) => ({
      at: pointer,
      holds: false,
      section: own ?? section,
      ...place,
    }));
  },
});

const STATUS_CHECKS = { status_code_conformance: statusCodeConformance, ignored_auth: ignoredAuth, negative_data_rejection: negativeDataRejection };

/** The checks an answer gets, in order: the status one named by the test's expectation. */
export function responseChecks(expectation: StatusExpectation) {
  const status = STATUS_CHECKS[expectation.check ?? 'status_code_conformance'];
  const named = {
    not_a_server_error: notAServerError,
    status_code_conformance: status,
    content_type_conformance: contentTypeConformance,
    response_schema_conformance: responseSchemaConformance,
  };
  return (expectation.only ?? (Object.keys(named) as ResponseCheck[])).map((name) => named[name]);
}

/**
 * Every way an answer differs from what the document, and the test's expectation, say of it; [] when it conforms.
 * `runs`: whether the run makes a check (all by default).
 */
export function responseFailures(
  validators: ContractValidators,
  operationId: OperationId,
  answer: ResponseToCheck,
  expectation: StatusExpectation = {},
  runs: (name: string) => boolean = () => true,
): Failure[] {
  const input: AnswerToCheck = { validators, operationId, answer, expectation };
  return responseChecks(expectation)
    .filter((check) => runs(check.name))
    .flatMap((check) =>
      failuresOf(check, check.judge(input), { operationId, status: answer.status, ...(expectation.severity ? { severity: expectation.severity } : {}) }),
    );
}
