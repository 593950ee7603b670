/** Issue 32: Settings → Integrations → Slack and Teams. */
export function ChatPage() {
  return <h1>Slack and Teams</h1>;
}
