// The world's SQLite schema. Times are offsets in seconds from the start of the current UTC day.
export const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE accounts (
  pk INTEGER PRIMARY KEY,
  platform TEXT NOT NULL,
  handle TEXT NOT NULL,
  user_id TEXT NOT NULL,
  display_name TEXT NOT NULL,
  niche TEXT NOT NULL,
  followers INTEGER NOT NULL
);
CREATE UNIQUE INDEX accounts_handle ON accounts (platform, handle);
CREATE UNIQUE INDEX accounts_user_id ON accounts (platform, user_id);

CREATE TABLE posts (
  pk INTEGER PRIMARY KEY,
  platform TEXT NOT NULL,
  id TEXT NOT NULL,
  account_pk INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  caption TEXT NOT NULL,
  code TEXT NOT NULL,
  media_type TEXT,
  views INTEGER NOT NULL,
  likes INTEGER NOT NULL,
  comments INTEGER NOT NULL,
  shares INTEGER NOT NULL
);
CREATE UNIQUE INDEX posts_id ON posts (platform, id);
CREATE UNIQUE INDEX posts_code ON posts (platform, code);

-- an account's posts, clustered by (account, time, id) with the columns a page shows: a page of
-- user posts is one range scan over a few adjacent pages, with no row lookups (the account, its
-- handle and user id, is looked up first anyway). Derived from posts when the world is built.
CREATE TABLE user_posts (
  account_pk INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  id TEXT NOT NULL,
  pk INTEGER NOT NULL,
  caption TEXT NOT NULL,
  code TEXT NOT NULL,
  media_type TEXT,
  views INTEGER NOT NULL,
  likes INTEGER NOT NULL,
  comments INTEGER NOT NULL,
  shares INTEGER NOT NULL,
  PRIMARY KEY (account_pk, ts, id)
) WITHOUT ROWID;

CREATE TABLE post_tags (
  platform TEXT NOT NULL,
  tag TEXT NOT NULL,
  ts INTEGER NOT NULL,
  post_pk INTEGER NOT NULL,
  PRIMARY KEY (platform, tag, ts, post_pk)
) WITHOUT ROWID;

-- comments are only ever read by post, so their ids (unique by construction) carry no index
CREATE TABLE comments (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  post_pk INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  user TEXT NOT NULL,
  text TEXT NOT NULL,
  likes INTEGER NOT NULL
);
CREATE INDEX comments_top ON comments (post_pk, likes, ts);

CREATE TABLE channels (
  pk INTEGER PRIMARY KEY,
  browse_id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  handle TEXT NOT NULL,
  niche TEXT NOT NULL,
  subscribers INTEGER NOT NULL
);

CREATE TABLE videos (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  channel_pk INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  tags TEXT NOT NULL,
  duration INTEGER NOT NULL,
  is_short INTEGER NOT NULL,
  views INTEGER NOT NULL,
  likes INTEGER NOT NULL,
  comments INTEGER NOT NULL
);
CREATE INDEX videos_channel_time ON videos (channel_pk, is_short, ts, id);

CREATE TABLE video_tags (
  tag TEXT NOT NULL,
  ts INTEGER NOT NULL,
  video_pk INTEGER NOT NULL,
  PRIMARY KEY (tag, ts, video_pk)
) WITHOUT ROWID;

CREATE TABLE video_comments (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  video_pk INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  user TEXT NOT NULL,
  text TEXT NOT NULL,
  likes INTEGER NOT NULL
);
CREATE INDEX video_comments_top ON video_comments (video_pk, likes, ts);

-- blipnet: accounts (a DID and a domain-name handle), posts and replies in one table (a reply
-- names its thread's root and its parent), reposts, hashtags and a full-text index of the text
CREATE TABLE blip_accounts (
  pk INTEGER PRIMARY KEY,
  did TEXT NOT NULL UNIQUE,
  handle TEXT NOT NULL UNIQUE,
  display_name TEXT,
  niche TEXT NOT NULL,
  followers INTEGER NOT NULL
);

CREATE TABLE blip_posts (
  pk INTEGER PRIMARY KEY,
  rkey TEXT NOT NULL,
  account_pk INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  text TEXT NOT NULL,
  lang TEXT,
  root_pk INTEGER,
  parent_pk INTEGER,
  depth INTEGER NOT NULL,
  quote_pk INTEGER,
  links TEXT NOT NULL,
  media TEXT NOT NULL,
  mentions TEXT NOT NULL,
  replies INTEGER NOT NULL,
  reposts INTEGER NOT NULL,
  likes INTEGER NOT NULL,
  quotes INTEGER NOT NULL
);
CREATE UNIQUE INDEX blip_posts_key ON blip_posts (account_pk, rkey);
CREATE INDEX blip_posts_account_time ON blip_posts (account_pk, ts);
CREATE INDEX blip_posts_thread ON blip_posts (root_pk, ts);

CREATE TABLE blip_reposts (
  account_pk INTEGER NOT NULL,
  rkey TEXT NOT NULL,
  ts INTEGER NOT NULL,
  post_pk INTEGER NOT NULL,
  PRIMARY KEY (account_pk, rkey)
) WITHOUT ROWID;

CREATE TABLE blip_tags (
  tag TEXT NOT NULL,
  ts INTEGER NOT NULL,
  post_pk INTEGER NOT NULL,
  PRIMARY KEY (tag, ts, post_pk)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE blip_fts USING fts5 (
  text,
  content = 'blip_posts', content_rowid = 'pk',
  tokenize = 'unicode61 remove_diacritics 2'
);

-- keyword search; unicode61 without stemming so that a match means every term appears verbatim
CREATE VIRTUAL TABLE video_fts USING fts5 (
  title, description, tags,
  content = 'videos', content_rowid = 'pk',
  tokenize = 'unicode61 remove_diacritics 2'
);
`;

/** tables of the canonical dump behind digest(), each with its key order. The tag tables, the
 *  clustered user_posts copy and the full-text index are derived from the other tables, so they
 *  are left out: the digest covers what the generator decided, not how it is indexed. */
export const DUMP_TABLES: ReadonlyArray<readonly [string, string]> = [
  ['accounts', 'pk'],
  ['posts', 'pk'],
  ['comments', 'pk'],
  ['channels', 'pk'],
  ['videos', 'pk'],
  ['video_comments', 'pk'],
  ['blip_accounts', 'pk'],
  ['blip_posts', 'pk'],
  ['blip_reposts', 'account_pk, rkey'],
];
