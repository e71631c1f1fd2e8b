// The paid API: one entry per endpoint of the contract (src/contract/endpoints.ts), naming the
// service verb that serves it. The table must have every endpoint (`satisfies` checks it), and
// each entry's body schema must be the contract's (checked when the routes are registered).
import type { Static, TObject } from '@sinclair/typebox';
import type { Services } from '../compose.js';
import {
  AnalyzeBody,
  BlipnetCommentsBody,
  BlipnetPostsBody,
  BlipnetSearchBody,
  BulkPostsBody,
  ChannelShortsBody,
  ChannelVideosBody,
  type EndpointId,
  HashtagPostsBody,
  PicnetUserPostsBody,
  PostCommentsBody,
  UserPostsBody,
  VidnetCommentsBody,
  VidnetHashtagBody,
  VidnetSearchBody,
} from '../contract/endpoints.js';
import { analyzeTexts } from '../services/analyze.js';
import type { CallContext, Reply } from '../services/billed-call.js';
import * as blipnet from '../services/blipnet.js';
import * as content from '../services/content.js';

export interface RouteHandler {
  /** the request body's schema (the contract's, for validation) */
  body: TObject;
  run: (services: Services, ctx: CallContext, body: never) => Promise<Reply>;
}

const handle = <B extends TObject>(
  body: B,
  run: (services: Services, ctx: CallContext, body: Static<B>) => Promise<Reply>,
) => ({ body, run });

export const ROUTES = {
  'clipnet.posts': handle(UserPostsBody, (s, ctx, b) => content.userPosts(s, ctx, 'clipnet', b)),
  'clipnet.comments': handle(PostCommentsBody, (s, ctx, b) => content.postComments(s, ctx, 'clipnet', b)),
  'clipnet.bulk_posts': handle(BulkPostsBody, (s, ctx, b) => content.bulkPosts(s, ctx, b)),
  'clipnet.hashtag_posts': handle(HashtagPostsBody, (s, ctx, b) =>
    content.hashtagPosts(s, ctx, 'clipnet', b),
  ),
  'picnet.posts': handle(PicnetUserPostsBody, (s, ctx, b) => content.userPosts(s, ctx, 'picnet', b)),
  'picnet.comments': handle(PostCommentsBody, (s, ctx, b) => content.postComments(s, ctx, 'picnet', b)),
  'picnet.hashtag_posts': handle(HashtagPostsBody, (s, ctx, b) => content.hashtagPosts(s, ctx, 'picnet', b)),
  'vidnet.search': handle(VidnetSearchBody, (s, ctx, b) => content.vidnetSearch(s, ctx, b)),
  'vidnet.hashtag_search': handle(VidnetHashtagBody, (s, ctx, b) => content.vidnetHashtag(s, ctx, b)),
  'vidnet.comments': handle(VidnetCommentsBody, (s, ctx, b) => content.vidnetComments(s, ctx, b)),
  'vidnet.channel_videos': handle(ChannelVideosBody, (s, ctx, b) => content.channelVideos(s, ctx, b)),
  'vidnet.channel_shorts': handle(ChannelShortsBody, (s, ctx, b) => content.channelShorts(s, ctx, b)),
  'blipnet.posts': handle(BlipnetPostsBody, (s, ctx, b) => blipnet.blipnetPosts(s, ctx, b)),
  'blipnet.comments': handle(BlipnetCommentsBody, (s, ctx, b) => blipnet.blipnetComments(s, ctx, b)),
  'blipnet.search': handle(BlipnetSearchBody, (s, ctx, b) => blipnet.blipnetSearch(s, ctx, b)),
  'blipnet.hashtag_posts': handle(HashtagPostsBody, (s, ctx, b) => blipnet.blipnetHashtagPosts(s, ctx, b)),
  'ml.analyze': handle(AnalyzeBody, (s, ctx, b) => analyzeTexts(s, ctx, b)),
} as const satisfies Record<EndpointId, RouteHandler>;
