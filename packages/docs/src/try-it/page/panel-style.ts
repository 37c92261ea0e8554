/**
 * The panel's look, injected with the script so a reference that never loads it pays nothing. Its
 * own colours in both modes (it sits in Redoc's samples column, whose background differs), at
 * 4.5:1 or more, and a layout that stacks on a 390 px phone.
 */
export const PANEL_CSS = `
.dp-tryit{--t-bg:#fff;--t-ink:#1b2528;--t-soft:#4a585c;--t-line:#b9c7c5;--t-accent:#0c766a;--t-accent-ink:#fff;--t-code:#f6f9f9;--t-bad:#a3122b;
  margin:16px 0;border:1px solid var(--t-line);border-radius:8px;background:var(--t-bg);color:var(--t-ink);font:14px/1.45 var(--dp-font);max-width:100%;box-sizing:border-box;overflow-wrap:anywhere}
html.dark .dp-tryit{--t-bg:#17211f;--t-ink:#e6eeed;--t-soft:#b3c2c0;--t-line:#45605c;--t-accent:#5fd4c0;--t-accent-ink:#052e2b;--t-code:#0f1716;--t-bad:#ff9aae}
.dp-tryit *{box-sizing:border-box}
.dp-tryit button{font:inherit;cursor:pointer;border-radius:6px;border:1px solid var(--t-accent);background:var(--t-bg);color:var(--t-ink);padding:6px 12px;min-height:36px}
.dp-tryit button:focus-visible,.dp-tryit input:focus-visible,.dp-tryit select:focus-visible,.dp-tryit textarea:focus-visible,.dp-tryit pre:focus-visible,.dp-tryit summary:focus-visible{outline:3px solid var(--t-accent);outline-offset:2px}
.dp-tryit .dp-tryit-toggle,.dp-tryit .dp-tryit-send{background:var(--t-accent);color:var(--t-accent-ink);font-weight:600}
.dp-tryit .dp-tryit-toggle{margin:8px;border-radius:6px}
.dp-tryit .dp-tryit-toggle::before{content:"▸ ";}
.dp-tryit .dp-tryit-toggle[aria-expanded=true]::before{content:"▾ ";}
.dp-tryit-body{padding:0 12px 12px}
.dp-tryit p{margin:8px 0}
.dp-tryit fieldset{border:1px solid var(--t-line);border-radius:6px;margin:8px 0;padding:6px 10px}
.dp-tryit legend{padding:0 4px;color:var(--t-soft)}
.dp-tryit fieldset>label{display:inline-block;margin-right:16px;padding:4px 0}
.dp-tryit-server{display:grid;gap:4px;margin-top:6px}
.dp-tryit-server[hidden]{display:none}
.dp-tryit-field{margin:8px 0}
.dp-tryit-field>label{display:block;margin-bottom:2px}
.dp-tryit-required{color:var(--t-bad);font-weight:600}
.dp-tryit-inputs{display:grid;gap:4px}
.dp-tryit input[type=text],.dp-tryit input[type=url],.dp-tryit input[type=password],.dp-tryit select,.dp-tryit textarea{width:100%;font:13px/1.4 var(--dp-mono);padding:6px 8px;border:1px solid var(--t-line);border-radius:6px;background:var(--t-code);color:var(--t-ink)}
.dp-tryit input::placeholder,.dp-tryit textarea::placeholder{color:var(--t-soft)}
.dp-tryit .dp-tryit-add{margin-top:4px;font-size:13px}
.dp-tryit-actions,.dp-tryit-copy{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}
.dp-tryit pre{margin:6px 0;padding:8px;max-height:320px;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;background:var(--t-code);color:var(--t-ink);border:1px solid var(--t-line);border-radius:6px;font:12px/1.45 var(--dp-mono)}
.dp-tryit pre[hidden]{display:none}
.dp-tryit-headers{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:6px 0;font:12px/1.4 var(--dp-mono)}
.dp-tryit-headers dd{margin:0}
.dp-tryit-problem,.dp-tryit-problems,.dp-tryit-answer[data-verdict=mismatch] .dp-tryit-verdict{color:var(--t-bad)}
.dp-tryit-steps summary{cursor:pointer;padding:4px 0;color:var(--t-soft)}
.dp-tryit-steps ol{margin:4px 0;padding-left:20px}
.dp-tryit code{font-family:var(--dp-mono);font-weight:600}
.dp-tryit-note{color:var(--t-soft)}
`;
