import { HashtagPostsBody } from '../../contract/endpoints.js';
import { hashtagPosts } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('clipnet.hashtag_posts', HashtagPostsBody, (s, ctx, body) =>
  hashtagPosts(s, ctx, 'clipnet', body),
);
