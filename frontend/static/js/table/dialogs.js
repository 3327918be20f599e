// Modal dialogs (<dialog>): they take focus when they open, Escape closes them, and focus goes back
// where it was (or to `fallback()` when that element is gone).
export function modal(dialog, { fallback } = {}) {
  let returnTo = null;
  dialog.addEventListener("close", () => {
    const el = returnTo;
    returnTo = null;
    if (el && el.isConnected && !el.disabled && el.offsetParent !== null) el.focus();
    // the control to go back to could not take the focus (or was inside this dialog): the fallback's
    if (fallback && (!el || document.activeElement !== el)) fallback();
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
      const active = document.activeElement;
      returnTo = active && active !== document.body && !dialog.contains(active) ? active : null;
      dialog.showModal();
      const target = focusEl || dialog.querySelector("[autofocus]")
        || dialog.querySelector("button:not([disabled]):not([hidden]), a[href]");
      if (!target) return;
      // Focus without the browser's scroll, which on a short screen moved the dialog's title out of view.
      target.focus({ preventScroll: true });
      this.reveal();
    },
    /** Show the dialog from its top, unless that hides the focused control (after it is opened or placed). */
    reveal() {
      dialog.scrollTop = 0;
      const focused = dialog.contains(document.activeElement) ? document.activeElement : null;
      if (focused && focused.getBoundingClientRect().bottom > dialog.getBoundingClientRect().bottom) {
        focused.scrollIntoView({ block: "nearest" });
      }
    },
    close() { if (dialog.open) dialog.close(); },
    get isOpen() { return dialog.open; },
  };
}
