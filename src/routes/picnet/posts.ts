import { PicnetUserPostsBody } from '../../contract/endpoints.js';
import { userPosts } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('picnet.posts', PicnetUserPostsBody, (s, ctx, body) =>
  userPosts(s, ctx, 'picnet', body),
);
