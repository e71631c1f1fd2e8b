import { PostCommentsBody } from '../../contract/endpoints.js';
import { postComments } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('clipnet.comments', PostCommentsBody, (s, ctx, body) =>
  postComments(s, ctx, 'clipnet', body),
);
