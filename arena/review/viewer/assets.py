# ruff: noqa: E501  (the page's JavaScript and CSS keep their own line lengths)
"""The page's own style and script, inlined into every page (no external resources)."""

CSS = r"""
:root { --bg:#f4f1ea; --felt:#2f6b4f; --ink:#222; --muted:#777; --mark:#d9480f; --today:#1c7ed6; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.35 "DejaVu Sans", "Liberation Sans", Arial, "Noto Sans CJK SC",
       "WenQuanYi Zen Hei", sans-serif;
       background:var(--bg); color:var(--ink); }
header { padding:8px 12px; background:#1f2d27; color:#eee; display:flex; flex-wrap:wrap;
         gap:10px 18px; align-items:center; }
header h1 { font-size:16px; margin:0; font-weight:600; }
header .meta span { margin-right:12px; }
header a { color:#9ad; }
#controls { display:flex; align-items:center; gap:6px; padding:8px 12px; background:#e6e0d2;
            flex-wrap:wrap; }
#controls button { font:inherit; padding:2px 8px; cursor:pointer; }
#slider { flex:1 1 300px; min-width:200px; }
#stepinfo { min-width:90px; font-variant-numeric:tabular-nums; }
#event { padding:6px 12px; font-weight:600; background:#fffdf6; border-bottom:1px solid #ddd; }
main { display:flex; gap:12px; padding:10px 12px; align-items:flex-start; }
#table { flex:1 1 auto; display:flex; flex-direction:column; gap:8px; min-width:0; }
#side { flex:0 0 430px; display:flex; flex-direction:column; gap:10px; }
.seat { background:var(--felt); color:#eee; border-radius:6px; padding:6px 8px;
        border:3px solid transparent; }
.seat.actor { border-color:#ffd43b; }
.seat .head { display:flex; gap:14px; align-items:baseline; margin-bottom:4px; }
.seat .head .name { font-weight:700; }
.seat .head .score { margin-left:auto; font-variant-numeric:tabular-nums; }
.row { display:flex; flex-wrap:wrap; gap:2px; align-items:flex-end; min-height:34px; }
.row + .row { margin-top:4px; }
.label { font-size:11px; color:#cde; width:54px; flex:0 0 54px; align-self:center; }
.hand .drawn { margin-left:10px; }
.meld { display:inline-flex; gap:1px; padding:2px 3px; margin-right:6px; background:#24573f;
        border-radius:4px; }
.meld .src { font-size:10px; color:#cde; align-self:center; margin-left:3px; }
.tile { display:inline-flex; flex-direction:column; align-items:center; justify-content:center;
        width:24px; height:32px; background:#fffef8; border:1px solid #999; border-radius:3px;
        box-shadow:0 1px 0 #bbb; color:#222; font-weight:700; line-height:1; position:relative; }
.tile .r { font-size:15px; }
.tile .u { font-size:10px; font-weight:400; }
.tile.m { color:#c92a2a; } .tile.p { color:#1864ab; } .tile.s { color:#2b8a3e; }
.tile.z { color:#222; } .tile.f { color:#862e9c; }
.tile.d7 { color:#c92a2a; } .tile.d6 { color:#2b8a3e; } .tile.d5 { color:#1864ab; }
.tile.back { background:#3b5bdb; border-color:#243a8f; }
.tile.claimed { opacity:.45; }
.tile.claimed::after { content:attr(data-claimed-by); position:absolute; right:-2px; top:-4px;
        font-size:9px; background:var(--mark); color:#fff; border-radius:6px; padding:0 3px; }
.tile.claim { outline:2px solid #ffd43b; }
.tile.win { outline:3px solid var(--mark); }
.river .tile { width:20px; height:27px; } .river .tile .r { font-size:13px; }
.river .tile.last { outline:2px solid #ffd43b; }
.box { background:#fff; border:1px solid #ccc; border-radius:6px; padding:8px; }
.box h2 { font-size:14px; margin:0 0 6px; }
table.cands { border-collapse:collapse; width:100%; font-size:12px; }
table.cands th, table.cands td { border-bottom:1px solid #eee; padding:2px 4px; text-align:right; }
table.cands td:first-child, table.cands th:first-child { text-align:left; }
table.cands tr.chosen td { background:#e7f5ff; font-weight:700; }
table.cands tr.played td { background:#fff4e6; }
table.cands tr.chosen.played td { background:#ebfbee; }
.tag { font-size:10px; border-radius:8px; padding:0 5px; color:#fff; margin-left:3px; }
.tag.today { background:var(--today); } .tag.played { background:var(--mark); }
.disagree { color:var(--mark); font-weight:700; }
#disagreements a, #decisionlist a { cursor:pointer; color:#1864ab; text-decoration:underline; }
#disagreements li.here { font-weight:700; }
#disagreements ul { max-height:320px; overflow:auto; margin:0; padding-left:18px; }
.note { color:var(--muted); font-size:12px; }
.ending .fans td { padding:1px 6px; }
.walls span { margin-right:8px; }
"""

JS = r"""
(function () {
  "use strict";
  const G = JSON.parse(document.getElementById("game-data").textContent);
  const WINDS = ["E", "S", "W", "N"];
  const DRAGON = {5: "\u25a1", 6: "G", 7: "R"};
  let step = 0, viewSeat = "all";
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  function tileName(t) {
    if (t < 27) return (t % 9 + 1) + "mps"[Math.floor(t / 9)];
    if (t < 31) return (t - 26) + "z";
    if (t < 34) return ({31: 7, 32: 6, 33: 5})[t] + "z";
    return (t - 33) + "f";
  }
  function tile(t, extra) {
    const e = el("span", "tile");
    if (t === null || t === undefined) {
      e.classList.add("back"); e.dataset.tile = "back"; e.title = "hidden";
      if (extra) e.classList.add(...extra.split(" ").filter(Boolean));
      return e;
    }
    const name = tileName(t), rank = name[0], suit = name[1];
    e.dataset.tile = name; e.title = name;
    e.classList.add(suit);
    if (suit === "z" && +rank >= 5) { e.classList.add("d" + rank); e.append(el("span", "r", DRAGON[rank])); }
    else if (suit === "z") { e.append(el("span", "r", WINDS[+rank - 1])); }
    else if (suit === "f") { e.append(el("span", "r", rank)); e.append(el("span", "u", "fl")); }
    else { e.append(el("span", "r", rank)); e.append(el("span", "u", suit)); }
    if (extra) e.classList.add(...extra.split(" ").filter(Boolean));
    return e;
  }
  const hidden = (seat) => viewSeat !== "all" && +viewSeat !== seat && step < G.steps.length - 1;

  function renderSeat(seat, st, s) {
    const S = G.states[st.s[seat]];
    const [hand, drawn, melds, river, flowers] = S;
    const box = el("section", "seat");
    box.dataset.seat = seat;
    if (st.a === seat) box.classList.add("actor");
    const head = el("div", "head");
    head.append(el("span", "name", "seat " + seat + (G.names[seat] ? " \u00b7 " + G.names[seat] : "")));
    head.append(el("span", "wind", "wind " + WINDS[G.winds[seat]] + (seat === G.dealer ? " (dealer)" : "")));
    if (G.walls_per_seat) head.append(el("span", "wall", "wall " + st.w[seat]));
    const score = el("span", "score");
    let text = "score " + G.scores_before[seat];
    if (s === G.steps.length - 1 && G.ending) {
      const d = G.ending.scores[seat];
      text += " " + (d >= 0 ? "+" : "") + d + " = " + (G.scores_before[seat] + d);
    }
    score.textContent = text; score.dataset.score = G.scores_before[seat];
    head.append(score);
    box.append(head);
    const hide = hidden(seat);
    // melds and flowers
    const mrow = el("div", "row melds");
    mrow.append(el("span", "label", "melds"));
    for (const [kind, tiles, claimed, from] of melds) {
      const m = el("span", "meld");
      const concealed = kind === "concealed kong";
      m.dataset.kind = kind;
      m.dataset.tiles = concealed && hide ? "back back back back" : tiles.map(tileName).join(" ");
      if (from !== null) m.dataset.from = from;
      let marked = false;
      tiles.forEach((t, i) => {
        const back = concealed && (hide || i === 0 || i === 3);
        const isClaim = !marked && claimed !== null && t === claimed;
        if (isClaim) marked = true;
        m.append(tile(back ? null : t, isClaim ? "claim" : ""));
      });
      if (from !== null) m.append(el("span", "src", "from " + from));
      mrow.append(m);
    }
    if (flowers.length) {
      const f = el("span", "meld flowers");
      f.dataset.kind = "flowers";
      for (const t of flowers) f.append(tile(t));
      mrow.append(f);
    }
    box.append(mrow);
    // hand
    const hrow = el("div", "row hand");
    hrow.append(el("span", "label", "hand"));
    for (const t of hand) hrow.append(tile(hide ? null : t));
    if (drawn !== null) {
      const isWin = G.ending && G.ending.winner === seat && s === G.steps.length - 1;
      const d = tile(hide ? null : drawn, "drawn" + (isWin ? " win" : ""));
      d.dataset.drawn = "1";
      hrow.append(d);
    }
    box.append(hrow);
    // discards
    const rrow = el("div", "row river");
    rrow.append(el("span", "label", "discards"));
    river.forEach(([t, by], i) => {
      const e = tile(t, by >= 0 ? "claimed" : "");
      if (by >= 0) e.dataset.claimedBy = by;
      if (i === river.length - 1 && st.a === seat && /discards/.test(st.e)) e.classList.add("last");
      rrow.append(e);
    });
    box.append(rrow);
    return box;
  }

  function candTable(dv, playedRow, tagChosen) {
    const t = el("table", "cands");
    const cols = dv.cols;
    const hr = el("tr");
    hr.append(el("th", "", "option"));
    for (const c of cols) hr.append(el("th", "", c));
    hr.append(el("th", "", "note"));
    t.append(hr);
    dv.rows.forEach(([label, values, note], i) => {
      const tr = el("tr");
      tr.dataset.label = label;
      const first = el("td", "", label);
      if (i === dv.chosen) { tr.classList.add("chosen"); first.append(el("span", "tag today", tagChosen)); }
      if (i === playedRow) { tr.classList.add("played"); first.append(el("span", "tag played", "played")); }
      tr.append(first);
      for (const v of values) tr.append(el("td", "", v));
      tr.append(el("td", "note", note));
      t.append(tr);
    });
    return t;
  }

  // in one seat's view only that seat's decisions are shown (the others' would show their hands)
  const decisionsOf = (st) => st.d.filter((d) => viewSeat === "all" || +viewSeat === d.seat);

  function renderDecisions(st) {
    const box = $("decisions");
    box.replaceChildren(el("h2", "", "Decisions at this step"));
    const ds = decisionsOf(st);
    if (!ds.length) { box.append(el("div", "note", "no recorded or re-asked decision here")); return; }
    for (const d of ds) {
      const div = el("div", "decision");
      div.dataset.seat = d.seat;
      const h = el("div", "", "seat " + d.seat + " played ");
      h.append(el("b", "played", d.played || "-"));
      if (d.lost) h.append(el("span", "note", " (lost: another seat's claim came first)"));
      if (d.today) {
        h.append(" \u00b7 now ");
        h.append(el("b", d.disagrees ? "disagree" : "", d.today.action));
        if (d.disagrees) { h.append(el("span", "tag played", "differs")); div.dataset.disagrees = "1"; }
      }
      div.append(h);
      if (d.recorded) {
        div.append(el("div", "note", "recorded reasons (" + d.recorded.method + ") " + d.recorded.note));
        if (d.recorded.rows.length) div.append(candTable(d.recorded, d.today ? null : d.recorded.chosen, "chosen"));
      }
      if (d.today) {
        div.append(el("div", "note", "re-asked (" + d.today.method + ") " + d.today.note));
        if (d.today.rows.length) div.append(candTable(d.today, d.played_row, "now"));
      }
      box.append(div);
    }
  }

  function renderEnding(s) {
    const box = $("ending");
    const E = G.ending;
    if (!E || s !== G.steps.length - 1) { box.hidden = true; return; }
    box.hidden = false;
    box.replaceChildren(el("h2", "", "End of the game"));
    let text;
    if (E.kind === "Won") {
      text = "seat " + E.winner + " wins on " + tileName(E.tile) + (E.self_drawn ? ", self-drawn" :
        E.robbed_kong ? ", robbing seat " + E.payer + "'s kong" : ", on seat " + E.payer + "'s discard");
    } else if (E.kind === "Penalized") {
      text = "seat " + E.penalized + " is penalised: " + E.detail;
    } else { text = "the wall is exhausted: a draw game"; }
    box.append(el("div", "", text));
    if (E.fans.length) {
      const t = el("table", "fans");
      for (const [name, english, value, count] of E.fans) {
        const tr = el("tr");
        tr.append(el("td", "", english || name));
        tr.append(el("td", "note", english ? name : ""));
        tr.append(el("td", "", value + (count > 1 ? " \u00d7 " + count : "")));
        t.append(tr);
      }
      const tr = el("tr");
      tr.append(el("td", "", "total")); tr.append(el("td", "")); tr.append(el("td", "", String(E.fan_total) + " " + G.unit));
      t.append(tr);
      box.append(t);
    }
    box.append(el("div", "", "score changes: " + E.scores.map((x) => (x >= 0 ? "+" : "") + x).join("  ")));
  }

  function render() {
    const st = G.steps[step];
    $("slider").value = step;
    $("stepinfo").textContent = "step " + step + " / " + (G.steps.length - 1);
    $("event").textContent = st.e;
    $("event").dataset.step = step;
    const walls = G.walls_per_seat ? "walls " + st.w.join(" ") : "wall " + st.w[0];
    $("walls").textContent = walls + " \u00b7 prevalent wind " + WINDS[G.prevalent];
    const table = $("table");
    table.replaceChildren(...[0, 1, 2, 3].map((seat) => renderSeat(seat, st, step)));
    table.dataset.step = step;
    table.dataset.view = viewSeat;
    renderDecisions(st);
    renderEnding(step);
    for (const li of document.querySelectorAll("#disagreements li")) {
      li.classList.toggle("here", +li.dataset.step === step);
    }
    const hash = "#step=" + step + (viewSeat === "all" ? "" : "&seat=" + viewSeat);
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
  function go(s) { step = Math.max(0, Math.min(G.steps.length - 1, s)); render(); }
  function nextWhere(pred, dir) {
    for (let s = step + dir; s >= 0 && s < G.steps.length; s += dir) if (pred(G.steps[s])) return go(s);
  }
  function readHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    if (p.has("seat")) viewSeat = p.get("seat");
    $("view").value = viewSeat;
    if (p.has("step")) step = Math.max(0, Math.min(G.steps.length - 1, parseInt(p.get("step"), 10) || 0));
    render();
  }

  function setup() {
    $("slider").max = G.steps.length - 1;
    $("slider").addEventListener("input", (e) => go(+e.target.value));
    $("first").onclick = () => go(0);
    $("prev").onclick = () => go(step - 1);
    $("next").onclick = () => go(step + 1);
    $("last").onclick = () => go(G.steps.length - 1);
    $("prevdec").onclick = () => nextWhere((s) => decisionsOf(s).length > 0, -1);
    $("nextdec").onclick = () => nextWhere((s) => decisionsOf(s).length > 0, 1);
    $("view").onchange = (e) => { viewSeat = e.target.value; render(); };
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "SELECT") return;
      if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
      else if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(G.steps.length - 1);
      else if (e.key === "PageUp") go(step - 10);
      else if (e.key === "PageDown") go(step + 10);
      else if (e.key === "n") $("nextdec").click();
      else if (e.key === "p") $("prevdec").click();
    });
    window.addEventListener("hashchange", readHash);
    const list = $("disagreements");
    const dis = [];
    G.steps.forEach((s, i) => s.d.forEach((d) => { if (d.disagrees) dis.push([i, d]); }));
    list.replaceChildren(el("h2", "", "Disagreements (" + dis.length + ")"));
    if (!G.reasked.length) list.append(el("div", "note", "re-ask the players (mjbot view --reask) to list them"));
    const ul = el("ul");
    for (const [i, d] of dis) {
      const li = el("li");
      li.dataset.step = i;
      const a = el("a", "", "step " + i + ", seat " + d.seat + " \u2014 played: " + d.played + " \u00b7 now: " + d.today.action);
      a.onclick = () => {
        if (viewSeat !== "all" && +viewSeat !== d.seat) { viewSeat = "all"; $("view").value = "all"; }
        go(i);
      };
      li.append(a);
      ul.append(li);
    }
    list.append(ul);
    const notes = $("notes");
    for (const n of G.notes) notes.append(el("div", "note", n));
    readHash();
  }
  setup();
})();
"""

INDEX_CSS = r"""
body { margin:0; font:14px/1.4 "DejaVu Sans", Arial, "Noto Sans CJK SC", "WenQuanYi Zen Hei", sans-serif;
       background:#f4f1ea; color:#222; }
header { padding:10px 14px; background:#1f2d27; color:#eee; }
header h1 { margin:0; font-size:17px; }
main { padding:12px 14px; }
table.games { border-collapse:collapse; }
table.games th, table.games td { padding:2px 8px; border-bottom:1px solid #ddd; text-align:right;
  white-space:nowrap; }
table.games td:nth-child(2), table.games th:nth-child(2) { text-align:left; }
.plot { background:#fff; border:1px solid #ccc; border-radius:6px; margin-bottom:12px; }
.legend span { margin-right:14px; font-weight:700; }
"""
