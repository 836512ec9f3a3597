// Modules that load/build.ts generates at bundle time: data taken from the OpenAPI document, faker-made texts
// (k6 cannot run npm packages, so they are made in Node before the run and bundled as data) and the suite's version.

declare module 'generated:api' {
  import type { OperationInfo } from '../../http/request.ts';
  import type { EnvelopeShape } from '../../http/list-envelope.ts';

  /** Every operation of the document by operationId. */
  export const operations: Record<OperationInfo['operationId'], OperationInfo>;
  /** The list envelope of each list operation (getV1Conversations, getV2Conversations). */
  export const envelopes: Partial<Record<OperationInfo['operationId'], EnvelopeShape>>;
}

declare module 'generated:data' {
  /** Operator and bot message texts. */
  export const sendTexts: string[];
  /** Variables passed into the dialogs the scripts create. */
  export const respondents: Array<Record<string, string>>;
}

declare module 'generated:suite' {
  /** This suite's version when the bundle was built (config/suite-version.ts). */
  export const version: string;
}
