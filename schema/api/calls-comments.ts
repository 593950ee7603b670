import { z } from 'zod';
import { callGroup } from './call-group.ts';

/**
 * Issue 29, comment threads (§3 "comments and threads"; §7 "comment threads (DELETE
 * comments/{comment})"). A thread belongs to a transaction, a claim, a bill or a spend request;
 * whoever may see the item reads and writes its thread (another business's item, or one the caller
 * cannot see, answers 404 REQUEST_7004). Mentions name people who can see the item (COMMENT_7002
 * otherwise, naming them) and notify them (`mention`); the item's owner hears of other people's
 * comments (`comment`). The author or an admin deletes a comment (COMMENT_7001 otherwise).
 * A workflow's `comment` action writes one with no author (`author_id` null, `workflow_id` set).
 * Not mirrored: the app reads a thread online when its item is open.
 */
export const COMMENT_SUBJECT_TYPES = ['transaction', 'reimbursement', 'bill', 'spend_request'] as const;
export const commentSubjectTypeSchema = z.enum(COMMENT_SUBJECT_TYPES);
export type CommentSubjectType = z.infer<typeof commentSubjectTypeSchema>;

export const COMMENT_BODY_MAX = 4000;
export const MAX_MENTIONS = 20;
/** The most comments one thread answers (oldest first); `total` says when there are more. */
export const MAX_THREAD_COMMENTS = 500;

export const commentSchema = z.object({
  id: z.uuid(),
  subject_type: commentSubjectTypeSchema,
  subject_id: z.uuid(),
  /** null when a workflow wrote it. */
  author_id: z.uuid().nullable(),
  /** The person's name, or "Workflow: <name>". */
  author_name: z.string(),
  workflow_id: z.uuid().nullable(),
  body: z.string().min(1).max(COMMENT_BODY_MAX),
  mentions: z.array(z.object({ user_id: z.uuid(), name: z.string() })).max(MAX_MENTIONS),
  created_at: z.iso.datetime({ offset: true }),
  /** Whether the caller may delete it (the author or an admin). */
  can_delete: z.boolean(),
});
export type Comment = z.infer<typeof commentSchema>;

const scopes = { scopes: ['default'] } as const;
const group = callGroup('/v1/auth/comments', scopes);

export const listComments = group('comments.list', 'GET', '', {
  query: z.object({ subject_type: commentSubjectTypeSchema, subject_id: z.uuid() }),
  response: z.object({ data: z.array(commentSchema).max(MAX_THREAD_COMMENTS), total: z.number().int().nonnegative() }),
});

/**
 * 201. `id` is the client's (optional): the same id again from the same author on the same item
 * answers the stored comment (a retry after a lost answer); used for anything else, 409 COMMENT_7003.
 * `mention_ids` are the people the text mentions (the app's @ picker).
 */
export const createComment = group('comments.create', 'POST', '', {
  body: z.object({
    id: z.uuid().optional(),
    subject_type: commentSubjectTypeSchema,
    subject_id: z.uuid(),
    body: z.string().trim().min(1).max(COMMENT_BODY_MAX),
    mention_ids: z.array(z.uuid()).max(MAX_MENTIONS).optional(),
  }),
  response: commentSchema,
});

/** §7 DELETE comments/{comment}: the author or an admin; a deleted comment leaves the thread. */
export const deleteComment = group('comments.delete', 'DELETE', '/:comment_id', {
  params: z.object({ comment_id: z.uuid() }),
  response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});

export const COMMENT_CALLS = [listComments, createComment, deleteComment] as const;
