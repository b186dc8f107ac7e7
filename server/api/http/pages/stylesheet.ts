// The pages' one small stylesheet, served by the server itself as /assets/site.css (the pages'
// policy allows no inline style). The colours of states are the vocabulary's tokens
// (shared/compliance/vocabulary.ts), one CSS variable each; the page's own colours are variables
// too, so the dark theme (prefers-color-scheme: dark) is one set of values, not a second sheet.

export const STYLESHEET = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5;
  --passed: #1b5e20; --failed: #b00020; --pending: #7a4f00; --neutral: #555;
  --text: #1b1b1f; --muted: #595961; --page: #ffffff; --surface: #f2f3f5; --line: #b4b9c1;
  --link: #0b50c4; --visited: #6a2ea0; }
@media (prefers-color-scheme: dark) { :root { --passed: #81c784; --failed: #ff8a80; --pending: #ffd54f; --neutral: #bdbdbd;
  --text: #e6e8eb; --muted: #aab0b8; --page: #15181c; --surface: #20252b; --line: #4a525c;
  --link: #8ab4f8; --visited: #d2a8f7; } }
body { background: var(--page); color: var(--text); }
a { color: var(--link); }
a:visited { color: var(--visited); }
:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
main { max-width: 64rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
.version { margin-top: 0; }
ul.links li { margin: 0.3rem 0; }
form { display: flex; gap: 0.5rem; align-items: end; flex-wrap: wrap; margin: 1rem 0; }
label { display: flex; flex-direction: column; font-weight: 600; }
input, button { font: inherit; color: var(--text); background: var(--page); border: 1px solid var(--line); border-radius: 0.25rem; }
input[type=password] { width: min(22rem, 100%); box-sizing: border-box; padding: 0.35rem; }
button { padding: 0.4rem 0.9rem; cursor: pointer; background: var(--surface); }
.error { color: var(--failed); font-weight: 600; }
main { overflow-wrap: anywhere; }
pre { white-space: pre-wrap; margin: 0; }
h2 code { font-size: 0.75em; }
pre.document { background: var(--surface); border: 1px solid var(--line); padding: 0.5rem 0.7rem; overflow-x: auto; white-space: pre; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
caption { text-align: left; font-style: italic; }
th, td { border: 1px solid var(--line); padding: 0.2rem 0.4rem; text-align: left; vertical-align: top; }
td ul { margin: 0; padding-left: 1.1rem; }
th { white-space: nowrap; background: var(--surface); }
td:first-child { min-width: 9rem; }
/* A table keeps a readable width and scrolls inside its own box when the screen is narrower. */
div.table { overflow-x: auto; margin: 0.5rem 0 1rem; }
div.table > table { margin: 0; }
th, td { min-width: 5rem; overflow-wrap: break-word; }
td code, td:not(:first-child) a { overflow-wrap: anywhere; }
@media (max-width: 48rem) {
  div.table > table { width: max-content; max-width: 60rem; }
  div.table caption { position: sticky; left: 0; max-width: calc(100vw - 3rem); }
}
header.site { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; margin-bottom: 0.5rem; }
a.org { font-weight: 600; }
ul.tally { margin: 0.3rem 0 0.5rem; }
form.search { margin: 0; gap: 0.3rem; flex-wrap: nowrap; }
form.search input { width: min(20rem, 60vw); padding: 0.3rem; }
nav.pager { display: flex; gap: 1rem; margin: 0.3rem 0 1rem; }
ul.inline { list-style: none; padding: 0; display: flex; gap: 1rem; flex-wrap: wrap; }
.status, time { white-space: nowrap; }
.status.passed { color: var(--passed); }
.status.failed { color: var(--failed); }
.status.pending { color: var(--pending); }
.status.neutral { color: var(--neutral); }
p.verdict { border-left: 0.3rem solid var(--neutral); background: var(--surface); padding: 0.3rem 0.7rem; margin: 0.5rem 0 1rem; }
p.verdict.passed { border-color: var(--passed); }
p.verdict.failed { border-color: var(--failed); }
p.verdict.pending { border-color: var(--pending); }
figure.chart { margin: 0.5rem 0; overflow-x: auto; }
figure.chart svg { max-width: none; }
input[inputmode=numeric] { width: 7rem; padding: 0.35rem; }
details { margin: 0.5rem 0; }
.hint { color: var(--muted); margin: 0; flex-basis: 100%; }
`;
