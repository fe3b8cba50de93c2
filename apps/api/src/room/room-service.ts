/**
 * The interview room's public face for other capabilities: the video-provider adapter the matches
 * service issues room URLs with (the built-in room page, a hosted provider, or LiveKit behind the
 * same page). Everything else of the room stays inside apps/api/src/room/.
 */
export {
  createVideoProvider,
  VideoProviderUnavailableError,
  type IssueRoomUrlInput,
  type IssueRoomUrlResult,
  type VideoProvider,
} from './video-provider';
