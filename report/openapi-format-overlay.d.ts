// openapi-format's overlay module on its own, typed as the package types it: the package root also loads its file
// and HTTP helpers (fs, http, https), which a pure module of report/ must not pull in.
declare module 'openapi-format/utils/overlay.js' {
  export { openapiOverlay } from 'openapi-format';
}
