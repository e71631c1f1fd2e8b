import { VidnetHashtagBody } from '../../contract/endpoints.js';
import { vidnetHashtag } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('vidnet.hashtag_search', VidnetHashtagBody, (s, ctx, body) =>
  vidnetHashtag(s, ctx, body),
);
