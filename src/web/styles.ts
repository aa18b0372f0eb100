// The one stylesheet, inlined in every page (no external assets). The CSP allows it by hash, so it is a
// constant: never interpolate anything into it.
export const STYLES = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d8dee4;--bg:#fff;--soft:#f6f8fa;--ok:#116329;--ok-bg:#e6f4ea;--bad:#a40e26;
--bad-bg:#fdecee;--warn:#7a4b00;--warn-bg:#fff4d6;--info:#0b4f9c;--info-bg:#e8f1fb;--accent:#0b57d0}
*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
main{overflow-wrap:break-word}
header.site,footer.site,main{max-width:64rem;margin:0 auto;padding:0 1rem}
header.site{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding-top:1rem;padding-bottom:1rem;border-bottom:1px solid var(--line)}
header.site nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.brand{font-weight:700;font-size:1.2rem;text-decoration:none;color:var(--fg)}
footer.site{color:var(--muted);font-size:.875rem;border-top:1px solid var(--line);margin-top:3rem;padding-top:1rem;padding-bottom:2rem}
h1{font-size:1.9rem;line-height:1.2;margin:1.5rem 0 .5rem}
h2{font-size:1.3rem;margin:2rem 0 .75rem}
h3{font-size:1.05rem;margin:.25rem 0}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.url{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;overflow-wrap:anywhere;background:var(--soft);padding:.5rem .75rem;border-radius:6px;border:1px solid var(--line)}
.lede{font-size:1.1rem;color:var(--fg);max-width:48rem}
.muted{color:var(--muted)}
.verdict{border-radius:10px;padding:1rem 1.25rem;margin-top:1.5rem;border:2px solid}
.verdict h1{margin:.1rem 0 .4rem}
.verdict p{margin:.25rem 0}
.eyebrow{text-transform:uppercase;letter-spacing:.06em;font-size:.8rem;font-weight:600}
.v-will_track{background:var(--ok-bg);border-color:var(--ok);color:#0a3d1a}
.v-will_not_track{background:var(--bad-bg);border-color:var(--bad);color:#5c0716}
.v-could_not_verify{background:var(--warn-bg);border-color:#b7791f;color:#4a2e00}
.v-no_tracking_found{background:#f3effb;border-color:#6f42c1;color:#3b2169}
.v-pending{background:var(--info-bg);border-color:var(--info);color:#06305e}
.v-failed,.v-neutral{background:var(--soft);border-color:var(--muted);color:var(--fg)}
.score{font-size:1.05rem}.score strong{font-size:1.4rem}
progress{width:100%;max-width:24rem;height:.75rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1.25rem;margin:1rem 0}
dl.facts dt{font-weight:600;color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
figure{margin:0}
figure svg{width:100%;height:auto;display:block;border:1px solid var(--line);border-radius:8px;background:#fff}
figure svg.hops-narrow{display:none}
figcaption{color:var(--muted);font-size:.9rem;margin-top:.4rem}
.table-wrap{overflow-x:auto}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;font-size:.9rem;margin:.5rem 0}
th,td{border-bottom:1px solid var(--line);padding:.4rem .5rem;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}
td.n{white-space:nowrap}
h1 .u{overflow-wrap:anywhere}
td.u{overflow-wrap:anywhere;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem;min-width:16rem}
ol.issues{list-style:none;padding:0;margin:0}
ol.issues li{border:1px solid var(--line);border-left-width:6px;border-radius:6px;padding:.75rem 1rem;margin:.75rem 0}
ol.issues li p{margin:.3rem 0}
.sev-critical{border-left-color:var(--bad)!important}.sev-warning{border-left-color:#b7791f!important}.sev-info{border-left-color:var(--info)!important}
.badge{display:inline-block;font-size:.75rem;font-weight:700;text-transform:uppercase;letter-spacing:.04em;padding:.05rem .45rem;border-radius:4px;margin-right:.4rem}
.b-critical{background:var(--bad-bg);color:var(--bad)}.b-warning{background:var(--warn-bg);color:var(--warn)}.b-info{background:var(--info-bg);color:var(--info)}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:.75rem 0}
.button,button{display:inline-block;font:inherit;font-weight:600;padding:.55rem 1rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;text-decoration:none;cursor:pointer}
.button.secondary,button.secondary{background:#fff;color:var(--accent)}
.share input{font:inherit;font-size:.9rem;width:100%;max-width:40rem;padding:.45rem .6rem;border:1px solid var(--line);border-radius:6px}
form.check{background:var(--soft);border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;margin:1.5rem 0}
form.check label{font-weight:600;display:block;margin-bottom:.35rem}
form.check .row{display:flex;gap:.5rem;flex-wrap:wrap}
form.check input[type=url]{flex:1 1 24rem;font:inherit;padding:.55rem .7rem;border:1px solid #8c959f;border-radius:6px;min-width:0}
form.check select{font:inherit;padding:.4rem;border-radius:6px;border:1px solid #8c959f;max-width:100%}
form.again{margin:.75rem 0 .25rem}
input[type=file]{max-width:100%}
.error{background:var(--bad-bg);color:var(--bad);border:1px solid var(--bad);border-radius:6px;padding:.6rem .8rem;font-weight:600}
.error a{color:inherit}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
header.site{flex-wrap:wrap}
header.site nav a[aria-current=page]{font-weight:700;color:var(--fg)}
.account{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem;font-size:.9rem;overflow-wrap:anywhere}
form.signout{margin:0}
button.link{background:none;border:none;color:var(--accent);padding:0;font-weight:400;text-decoration:underline}
.notice{background:var(--ok-bg);color:#0a3d1a;border:1px solid var(--ok);border-radius:6px;padding:.6rem .8rem}
.secret{background:var(--warn-bg);border:2px solid #b7791f;border-radius:10px;padding:1rem 1.25rem;margin:1.5rem 0}
.secret h2{margin-top:0}
.secret input{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.95rem;width:100%;max-width:40rem;padding:.5rem .6rem;border:1px solid #8c959f;border-radius:6px;background:#fff}
form.panel{background:var(--soft);border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;margin:1rem 0}
form.panel label{font-weight:600;display:block;margin:.6rem 0 .3rem}
form.panel input[type=text],form.panel input[type=date],form.panel textarea,form.panel select{font:inherit;padding:.5rem .65rem;border:1px solid #8c959f;border-radius:6px;width:100%;max-width:32rem;background:#fff}
form.panel textarea{max-width:none;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
form.panel .hint{color:var(--muted);font-size:.875rem;margin:.2rem 0 0}
form.panel button{margin-top:1rem}
form.inline{display:inline;margin:0}
button.danger,.button.danger{background:var(--bad);border-color:var(--bad);color:#fff}
.vbadge{display:inline-block;font-size:.8rem;font-weight:700;padding:.1rem .5rem;border-radius:999px;text-decoration:none;white-space:nowrap;border:1px solid}
.vb-will_track{background:var(--ok-bg);color:var(--ok)}.vb-will_not_track{background:var(--bad-bg);color:var(--bad)}
.vb-could_not_verify{background:var(--warn-bg);color:var(--warn)}.vb-no_tracking_found{background:#f3effb;color:#5a32a3}.vb-pending{background:var(--info-bg);color:var(--info)}.vb-failed{background:var(--soft);color:var(--muted)}
nav.pages{display:flex;gap:1rem;margin:1rem 0}
caption{text-align:left;padding:.25rem 0}
.empty{color:var(--muted);font-style:italic}
@media (max-width:50rem){figure svg.hops-wide{display:none}figure svg.hops-narrow{display:block;max-width:30rem}}
@media (max-width:40rem){h1{font-size:1.5rem}dl.facts{grid-template-columns:1fr}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.stack,table.stack caption,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}
table.stack tr{border:1px solid var(--line);border-radius:6px;padding:.35rem .6rem;margin:.5rem 0}
table.stack td,table.stack tbody th{border:0;padding:.15rem 0;min-width:0;white-space:normal;overflow-wrap:anywhere}
table.stack tbody th{display:block;background:none}
table.stack td[data-label]:not([data-label=""])::before{content:attr(data-label) ": ";font-weight:600;color:var(--muted)}}
/* monitors (monitors-page.ts, monitor-page.ts): the state in words and colour */
.mstate{display:inline-block;font-size:.8rem;font-weight:700;padding:.1rem .5rem;border-radius:999px;white-space:nowrap;border:1px solid}
.ms-healthy{background:var(--ok-bg);color:var(--ok)}.ms-broken{background:var(--bad-bg);color:var(--bad)}
.ms-unknown{background:var(--warn-bg);color:var(--warn)}.ms-pending{background:var(--info-bg);color:var(--info)}
fieldset.channels{border:1px solid var(--line);border-radius:8px;margin:1rem 0 0;padding:.25rem 1rem 1rem}
fieldset.channels legend{font-weight:600;padding:0 .3rem}
ol.events{list-style:none;padding:0;margin:0}
ol.events li.event{border:1px solid var(--line);border-left-width:6px;border-radius:6px;padding:.75rem 1rem;margin:.75rem 0}
ol.events li.event p{margin:.3rem 0}
.ev-broken{border-left-color:var(--bad)!important}.ev-recovered{border-left-color:var(--ok)!important}.ev-changed{border-left-color:var(--info)!important}
ul.changes,ul.deliveries{margin:.3rem 0;padding-left:1.25rem;overflow-wrap:anywhere}
.ds-delivered{color:var(--ok)}.ds-failed{color:var(--bad)}.ds-pending{color:var(--warn)}
/* email sign-in (auth-pages.ts) */
form.panel input[type=email]{font:inherit;padding:.5rem .65rem;border:1px solid #8c959f;border-radius:6px;width:100%;max-width:32rem;background:#fff}
form.panel input[type=url]{font:inherit;padding:.5rem .65rem;border:1px solid #8c959f;border-radius:6px;width:100%;max-width:40rem;background:#fff}
form.panel label.inline{display:inline;font-weight:400;margin:0 0 0 .35rem}
`;
