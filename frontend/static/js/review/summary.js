// The review's summary: accuracy, points lost by bids and by cards, the count of each label, and the same
// deal by deal.
import { _ } from "../i18n.js";
import { h, LABELS, MARKS, p1, signed } from "./words.js";

/** Fill `box` with the document's `summary` (`s`). */
export function renderSummary(box, s) {
  box.replaceChildren();
  const top = h("div", "rs-top");
  const acc = h("div", "rs-acc");
  acc.append(h("span", "rs-big", typeof s.accuracy === "number" ? `${s.accuracy.toFixed(1)}%` : "–"), h("span", "", _("Accuracy")));
  acc.title = _("The share of the decisions with a real choice that were the best or good (losing under 0.5 points).");
  top.append(acc);
  const loss = s.loss || {};
  const dl = h("dl", "rs-loss");
  for (const [label, v] of [[_("Points lost"), loss.total], [_("by bids"), loss.bids], [_("by cards"), loss.cards]]) {
    const row = h("div");
    row.append(h("dt", "", label), h("dd", "", p1(v || 0)));
    dl.append(row);
  }
  top.append(dl);
  box.append(top);

  const labels = s.labels || {};
  const ul = h("ul", "rs-labels");
  const L = LABELS();
  for (const k of ["best", "good", "inaccuracy", "mistake", "blunder"]) {
    const li = h("li", `lab-${k}`);
    li.append(h("span", "mk", MARKS[k] || "✓"), " ", L[k], " ", h("b", "", String(labels[k] || 0)));
    ul.append(li);
  }
  const forced = h("li", "lab-forced");
  forced.append(_("Forced"), " ", h("b", "", String(s.forced || 0)));
  ul.append(forced);
  box.append(ul);

  const deals = s.deals || [];
  if (!deals.length) return;
  const wrap = h("div", "rs-deals-wrap");
  const table = h("table", "rs-deals");
  table.append(h("caption", "sr-only", _("The review deal by deal")));
  const head = h("tr");
  for (const t of [_("Deal"), _("Score"), _("Accuracy"), _("Lost by bids"), _("Lost by cards"), "?!", "?", "??"]) {
    const th = h("th", "", t);
    th.scope = "col";
    head.append(th);
  }
  const thead = h("thead");
  thead.append(head);
  const tbody = h("tbody");
  for (const d of deals) {
    const tr = h("tr");
    const th = h("th", "", String(d.deal));
    th.scope = "row";
    const lab = d.labels || {};
    tr.append(th, h("td", d.score < 0 ? "neg" : "pos", signed(d.score || 0)),
      h("td", "", typeof d.accuracy === "number" ? `${Math.round(d.accuracy)}%` : "–"),
      h("td", "", p1((d.loss && d.loss.bids) || 0)), h("td", "", p1((d.loss && d.loss.cards) || 0)),
      h("td", lab.inaccuracy ? "lab-inaccuracy" : "n", String(lab.inaccuracy || 0)),
      h("td", lab.mistake ? "lab-mistake" : "n", String(lab.mistake || 0)),
      h("td", lab.blunder ? "lab-blunder" : "n", String(lab.blunder || 0)));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  wrap.append(table);
  box.append(wrap);
}
