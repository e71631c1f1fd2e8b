import { VidnetCommentsBody } from '../../contract/endpoints.js';
import { vidnetComments } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('vidnet.comments', VidnetCommentsBody, (s, ctx, body) =>
  vidnetComments(s, ctx, body),
);
