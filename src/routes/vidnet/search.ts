import { VidnetSearchBody } from '../../contract/endpoints.js';
import { vidnetSearch } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('vidnet.search', VidnetSearchBody, (s, ctx, body) => vidnetSearch(s, ctx, body));
