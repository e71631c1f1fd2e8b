import { UserPostsBody } from '../../contract/endpoints.js';
import { userPosts } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('clipnet.posts', UserPostsBody, (s, ctx, body) =>
  userPosts(s, ctx, 'clipnet', body),
);
