import { BulkPostsBody } from '../../contract/endpoints.js';
import { bulkPosts } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('clipnet.bulk_posts', BulkPostsBody, (s, ctx, body) => bulkPosts(s, ctx, body));
