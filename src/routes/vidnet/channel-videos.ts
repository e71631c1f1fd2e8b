import { ChannelVideosBody } from '../../contract/endpoints.js';
import { channelVideos } from '../../services/content.js';
import { defineRoute } from '../define.js';

export default defineRoute('vidnet.channel_videos', ChannelVideosBody, (s, ctx, body) =>
  channelVideos(s, ctx, body),
);
