// har-schema ships its JSON Schemas (draft-06, one per HAR object, referring to each other by $id) without types.
declare module 'har-schema' {
  const schemas: Record<string, { $id: string }>;
  export default schemas;
}
