// Controls only a script can serve come disabled in the HTML (`data-bound-by-script`): a tap before the page's
// module has bound them would submit the form natively (the page reloads, nothing is created) or do nothing at
// all on a slow phone. Each module calls `bound(root)` once its handlers are attached.
export function bound(root) {
  for (const el of root.querySelectorAll("[data-bound-by-script]")) el.disabled = false;
}
