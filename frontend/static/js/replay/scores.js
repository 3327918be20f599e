// The replay's score sheet: every deal's tricks won / bid and score, the final totals and the winners'
// stars; and how the replay writes a score (one decimal, a real minus sign).
import { _ } from "../i18n.js";

export const fmt1 = (x) => (x < 0 ? "−" : "") + Math.abs(x).toFixed(1);

export function renderScores(app, doc, name) {
  const sheet = app.querySelector(".score-sheet");
  const seats = [0, 1, 2, 3];
  let rows = "";
  for (const d of doc.deals) {
    rows += `<tr><th scope="row">${d.number}</th>` + seats.map((s) =>
      `<td class="${d.scores[s] < 0 ? "neg" : "pos"}"><span class="bw">${d.tricks_won[s]}/${d.bids.find((b) => b.seat === s)?.bid}</span>` +
      `<span class="sc">${d.scores[s] > 0 ? "+" : ""}${fmt1(d.scores[s])}</span></td>`).join("") + "</tr>";
  }
  const tot = seats.map((s) => `<td class="${doc.winners.includes(s) ? "win" : ""}">${fmt1(doc.final_totals[s])}${doc.winners.includes(s) ? " ★" : ""}</td>`).join("");
  sheet.innerHTML = `<table><thead><tr><th>${_("Deal")}</th>${seats.map(() => "<th><span></span></th>").join("")}</tr></thead>` +
    `<tbody>${rows}</tbody><tfoot><tr><th>${_("Total")}</th>${tot}</tr></tfoot></table>`;
  sheet.querySelectorAll("thead th span").forEach((sp, i) => { sp.textContent = name(i); });
}
