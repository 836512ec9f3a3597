// Self-contained HTML pages (the drift report, the history of baselines, the coverage table, the load page): inline
// style and script, and a Content-Security-Policy that forbids any network use (and any script on a page that has
// none), so a page opened from an artifact shows what it holds and nothing else. Pure and k6-safe.

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function htmlPage(page: { title: string; style: string; body: string; script?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'${page.script ? "; script-src 'unsafe-inline'" : ''}">
<title>${escapeHtml(page.title)}</title>
<style>${page.style}</style>
</head>
<body>
${page.body}
${page.script ? `<script>${page.script}</script>\n` : ''}</body>
</html>
`;
}
