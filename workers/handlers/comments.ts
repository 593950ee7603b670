import type { z } from 'zod';
import { createComment, deleteComment, listComments, type Comment, type CommentSubjectType } from '../../schema/api/calls-comments.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: threads live on the server (not mirrored, nothing queued). */
export const COMMENT_OFFLINE = offlineFailure('You’re offline. Comments need a connection: nothing was sent.');

export type CommentInput = z.input<typeof createComment.body>;
export type { Comment, CommentSubjectType };

/**
 * Issue 29, comment threads (schema/api/calls-comments.ts), online only: a thread is read when its
 * item is open, oldest first (`total` says when there are more than the answer holds); a create
 * carries the client's id so a retry after a lost answer is the same comment; delete is the
 * author's or an admin's. A refusal is data: the server's error_v2 (COMMENT_7002 names who cannot
 * see the item), or offline.
 */
export const COMMENT_CALLS = onlineDomain(COMMENT_OFFLINE, {
  comments: via(
    listComments,
    (subject_type: CommentSubjectType, subject_id: string) => ({ query: { subject_type, subject_id } }),
    (d: { data: Comment[]; total: number }) => ({ comments: d.data, total: d.total }),
  ),
  createComment: via(createComment, (body: CommentInput) => ({ body }), (comment: Comment) => ({ comment })),
  deleteComment: via(deleteComment, (comment_id: string) => ({ params: { comment_id } })),
});

export type CommentApi = OnlineApi<typeof COMMENT_CALLS>;

export const commentHandlers = (port: OnlinePort): CommentApi => bindDomain(port, COMMENT_CALLS);
