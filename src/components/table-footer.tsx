/** Under a list: its keyboard hint, on the right (hidden on touch screens by the phone styles). */
export function TableFooter({ hint }: { hint: string }) {
  return (
    <div className="table-footer muted">
      <span className="spacer" />
      <span className="kbd-hint" aria-hidden="true">{hint}</span>
    </div>
  );
}
