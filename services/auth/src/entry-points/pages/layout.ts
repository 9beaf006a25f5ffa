import { html, SafeHtml } from './html';

const STYLE = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
  header { background: #1d2330; color: #fff; padding: .8rem 1.5rem; display: flex; justify-content: space-between; align-items: center; }
  header a { color: #fff; }
  header nav a[aria-current] { font-weight: 700; text-decoration: none; }
  header button { background: none; border: 1px solid #fff; color: #fff; border-radius: 4px; }
  main { max-width: 60rem; margin: 1.5rem auto; padding: 0 1.5rem; }
  section { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: 1rem 1.5rem; margin-bottom: 1.5rem; }
  label { display: block; margin: .6rem 0 .2rem; font-weight: 600; }
  input[type=text], input[type=email], input[type=password], select { width: 100%; max-width: 28rem; padding: .4rem; box-sizing: border-box; }
  fieldset { border: 1px solid #dde1e7; margin: .6rem 0; }
  fieldset label { display: inline-block; font-weight: normal; margin-right: 1rem; }
  fieldset label[for] { display: block; margin-top: .6rem; }
  button { padding: .4rem .9rem; cursor: pointer; }
  table { border-collapse: collapse; width: 100%; font-size: 14px; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e6e9ee; vertical-align: top; }
  code, .key { font-family: ui-monospace, monospace; }
  .error { background: #fdecec; border: 1px solid #f3b5b5; padding: .6rem 1rem; border-radius: 4px; }
  .notice { background: #ecf7ee; border: 1px solid #b2dcb9; padding: .6rem 1rem; border-radius: 4px; }
  .new-key input { width: 100%; max-width: 40rem; font-family: ui-monospace, monospace; padding: .4rem; }
  .muted { color: #69707d; }
  .inline { display: inline; }
`;

/** The frame of every page: no external resources; the style and script carry the response's CSP nonce. */
export function layout(opts: {
  title: string;
  nonce: string;
  body: SafeHtml;
  header?: SafeHtml;
  script?: string;
  style?: string;
}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · Postbus</title>
<style nonce="${opts.nonce}">${new SafeHtml(STYLE + (opts.style ?? ''))}</style>
</head>
<body>
<header><strong>Postbus</strong>${opts.header}</header>
<main>
${opts.body}
</main>
${opts.script ? html`<script nonce="${opts.nonce}">${new SafeHtml(opts.script)}</script>` : ''}
</body>
</html>
`.value;
}
