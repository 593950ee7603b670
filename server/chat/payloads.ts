import type { ChatProvider } from '../../schema/api/calls-chat.ts';

/**
 * What a chat post says (issue 32): a Slack Block Kit message or a Microsoft Teams Adaptive Card
 * (the `message` envelope Teams workflows and incoming webhooks both take), built from the same
 * parts. Pure: tests read the JSON.
 */
export type ChatMessage = {
  /** One line: what happened ("Sam Lee's claim for $42.00 is waiting for approval"). */
  title: string;
  /** More lines (the rejection's reason and who decided), possibly empty. */
  body: string;
  /** The accent: a request waiting, a rejection, or a test. */
  tone: 'waiting' | 'rejected' | 'test';
  link: { label: string; url: string } | null;
};

const SLACK_HEADER_MAX = 150;
const SLACK_SECTION_MAX = 3000;

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** Slack's mrkdwn treats &, < and > as control characters: a name with "<!channel>" must not ping anyone. */
export const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const EMOJI: Record<ChatMessage['tone'], string> = { waiting: ':hourglass_flowing_sand:', rejected: ':x:', test: ':white_check_mark:' };

export function slackPayload(m: ChatMessage): Record<string, unknown> {
  const blocks: Array<Record<string, unknown>> = [
    { type: 'section', text: { type: 'mrkdwn', text: clip(`${EMOJI[m.tone]} *${slackEscape(m.title)}*`, SLACK_SECTION_MAX) } },
  ];
  if (m.body.trim() !== '') blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(slackEscape(m.body), SLACK_SECTION_MAX) } });
  if (m.link) {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: clip(m.link.label, 75), emoji: false }, url: m.link.url, ...(m.tone === 'waiting' && { style: 'primary' }) }],
    });
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: 'Ledgerline' }] });
  // `text` is the notification's and the screen reader's words; mrkdwn off there, so nothing in it is a mention.
  return { text: clip(m.title, SLACK_HEADER_MAX), blocks, unfurl_links: false, unfurl_media: false };
}

const TEAMS_COLOR: Record<ChatMessage['tone'], string> = { waiting: 'Accent', rejected: 'Attention', test: 'Good' };

export function teamsPayload(m: ChatMessage): Record<string, unknown> {
  const body: Array<Record<string, unknown>> = [
    { type: 'TextBlock', text: 'Ledgerline', size: 'Small', isSubtle: true, wrap: true },
    { type: 'TextBlock', text: m.title, weight: 'Bolder', size: 'Medium', color: TEAMS_COLOR[m.tone], wrap: true },
  ];
  if (m.body.trim() !== '') body.push({ type: 'TextBlock', text: m.body, wrap: true });
  return {
    type: 'message',
    attachments: [{
      contentType: 'application/vnd.microsoft.card.adaptive',
      contentUrl: null,
      content: {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
        type: 'AdaptiveCard',
        version: '1.4',
        body,
        ...(m.link && { actions: [{ type: 'Action.OpenUrl', title: m.link.label, url: m.link.url }] }),
      },
    }],
  };
}

export const chatPayload = (provider: ChatProvider, m: ChatMessage) => (provider === 'slack' ? slackPayload(m) : teamsPayload(m));
