// Modal dialogs (<dialog>): they take focus when they open, Escape closes them, and focus goes back
// where it was (or to `fallback()` when that element is gone).
export function modal(dialog, { fallback } = {}) {
  let returnTo = null;
  dialog.addEventListener("close", () => {
    const el = returnTo;
    returnTo = null;
    if (el && el.isConnected && !el.disabled && el.offsetParent !== null) el.focus();
    else if (fallback) fallback();
  });
  // a click on the backdrop (outside the dialog's box) closes it
  dialog.addEventListener("click", (ev) => {
    if (ev.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    const inside = ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
    if (!inside) dialog.close();
  });
  for (const b of dialog.querySelectorAll(".dialog-close")) b.addEventListener("click", () => dialog.close());
  return {
    open(focusEl) {
      if (dialog.open) return;
      returnTo = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
      dialog.showModal();
      const target = focusEl || dialog.querySelector("[autofocus]")
        || dialog.querySelector("button:not([disabled]):not([hidden]), a[href]");
      if (target) target.focus();
    },
    close() { if (dialog.open) dialog.close(); },
    get isOpen() { return dialog.open; },
  };
}
