// The scores: the score sheet (every deal's tricks won / bid and score, the deal being played, the totals
// and the winners' stars; on the table's side and in the Scores dialog) and a just-scored deal's summary.
import { _, fmt } from "../i18n.js";
import { tenths } from "../cards.js";
import { plateName } from "../players.js";

export function createScores(app, { seatOf, nameOf }) {
  const $ = (sel) => app.querySelector(sel);

  function scoreTable(f) {
    const seats = [0, 1, 2, 3];
    const table = document.createElement("table");
    const head = seats.map((s) => `<th scope="col" class="${s === f.seat ? "me" : ""}"><span></span></th>`).join("");
    let rows = "";
    for (const d of f.deals || []) {
      rows += `<tr><th scope="row">${d.number}</th>` + seats.map((s) => {
        const sc = d.scores[s];
        return `<td class="${sc < 0 ? "neg" : "pos"}"><span class="bw">${d.tricks_won[s]}/${d.bids[s]}</span>` +
          `<span class="sc">${tenths(sc, true)}</span></td>`;
      }).join("") + `</tr>`;
    }
    if (f.phase !== "finished" && f.deal_number && !(f.deals || []).some((d) => d.number === f.deal_number)) {
      rows += `<tr class="current"><th scope="row">${f.deal_number}</th>` + seats.map((s) => {
        const b = f.bids ? f.bids[s] : null;
        return `<td><span class="bw">${f.tricks_won ? f.tricks_won[s] : 0}/${b == null ? "–" : b}</span><span class="sc">…</span></td>`;
      }).join("") + `</tr>`;
    }
    const totals = seats.map((s) => {
      const win = f.phase === "finished" && (f.winners || []).includes(s);
      return `<td class="${win ? "win" : ""}">${tenths(f.totals ? f.totals[s] : 0)}${win ? " ★" : ""}</td>`;
    }).join("");
    table.innerHTML =
      `<caption class="sr-only"></caption>` +
      `<thead><tr><th scope="col"></th>${head}</tr>` +
      `<tr class="sub"><td></td>${seats.map(() => `<td></td>`).join("")}</tr></thead>` +
      `<tbody>${rows}</tbody>` +
      `<tfoot><tr><th scope="row"></th>${totals}</tr></tfoot>`;
    table.querySelector("caption").textContent = _("Score sheet");
    table.querySelector("thead th").textContent = _("Deal");
    table.querySelectorAll("tr.sub td:not(:first-child)").forEach((td) => { td.textContent = _("won/bid"); });
    table.querySelector("tfoot th").textContent = _("Total");
    // a column is narrow: a bot's own name ("Hari", the plates say it is a bot), on up to two lines
    table.querySelectorAll("thead tr:first-child th span").forEach((sp, i) => {
      sp.textContent = i === f.seat ? _("You") : plateName(seatOf(f, i)) || nameOf(f, i);
      sp.title = nameOf(f, i);
    });
    return table;
  }

  function renderSheets(f) {
    for (const sheet of app.querySelectorAll(".score-sheet")) sheet.replaceChildren(scoreTable(f));
  }

  function renderSummary(f) {
    const box = $(".deal-summary");
    const d = f.summary;
    box.hidden = !d;
    if (!d) return;
    box.querySelector(".deal-summary-title").textContent = fmt(_("Deal %(n)s scored"), { n: d.number });
    const ol = box.querySelector(".deal-summary-rows");
    ol.replaceChildren();
    for (const s of [0, 1, 2, 3].sort((a, b) => d.totals[b] - d.totals[a])) {
      const li = document.createElement("li");
      li.className = d.scores[s] < 0 ? "neg" : "pos";
      li.innerHTML = `<span class="n"></span><span class="bw"></span><span class="sc"></span><span class="t"></span>`;
      li.querySelector(".n").textContent = nameOf(f, s);
      li.querySelector(".bw").textContent = `${d.tricks_won[s]}/${d.bids[s]}`;
      li.querySelector(".sc").textContent = tenths(d.scores[s], true);
      li.querySelector(".t").textContent = tenths(d.totals[s]);
      ol.appendChild(li);
    }
  }

  function render(f) {
    renderSheets(f);
    renderSummary(f);
  }

  return { render };
}
