import { ChannelShortsBody } from '../../contract/endpoints.js';
import { channelShorts } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('vidnet.channel_shorts', ChannelShortsBody, (s, ctx, body) =>
  channelShorts(s, ctx, body),
);
