import { CreateOutbox1732200000000 } from '@postbus/bus';
import { CreatePosts1732200000001 } from './1732200000001-create-posts';
import { DraftsAndApprovals1732200000002 } from './1732200000002-drafts-and-approvals';
import { MonthlyPostCounts1732200000003 } from './1732200000003-monthly-post-counts';
import { Redispatch1732200000004 } from './1732200000004-redispatch';
import { PostWarnings1732200000005 } from './1732200000005-post-warnings';
import { Schedules1732200000006 } from './1732200000006-schedules';
import { DefaultSchedules1732200000007 } from './1732200000007-default-schedules';
import { Series1732200000008 } from './1732200000008-series';
import { PostFollowUps1732200000009 } from './1732200000009-post-follow-ups';
import { RenditionWait1732200000020 } from './1732200000020-rendition-wait';
import { CoverFrames1732200000021 } from './1732200000021-cover-frames';
import { ProfileFacts1732200000022 } from './1732200000022-profile-facts';
import { CallAnswersSweep1732200000023 } from './1732200000023-call-answers-sweep';

export const migrations = [
  CreateOutbox1732200000000,
  CreatePosts1732200000001,
  DraftsAndApprovals1732200000002,
  MonthlyPostCounts1732200000003,
  Redispatch1732200000004,
  PostWarnings1732200000005,
  Schedules1732200000006,
  DefaultSchedules1732200000007,
  Series1732200000008,
  PostFollowUps1732200000009,
  RenditionWait1732200000020,
  CoverFrames1732200000021,
  ProfileFacts1732200000022,
  CallAnswersSweep1732200000023,
];
