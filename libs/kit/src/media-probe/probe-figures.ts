import type { MediaProbe } from '@postbus/contracts';
import type { FfprobeOutput, FfprobeStream } from './run-ffprobe';

/**
 * The figures Postbus keeps from ffprobe's answer, or undefined when the answer shows no picture
 * (no video stream with a size): such a file cannot be published anywhere. Whether it is an
 * image or a video follows the type sniffed from its bytes.
 */
export function probeFigures(output: FfprobeOutput, contentType: string): MediaProbe | undefined {
  const streams = output.streams ?? [];
  // A cover picture embedded in a video file is a "video" stream too: it is not the video.
  const picture = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic && s.width && s.height);
  if (!picture?.codec_name || !picture.width || !picture.height) return undefined;
  const container = output.format?.format_name ?? 'unknown';
  if (!contentType.startsWith('video/')) {
    const image = { format: picture.codec_name, width: picture.width, height: picture.height };
    return {
      kind: 'image',
      container,
      width: image.width,
      height: image.height,
      durationSec: null,
      bitRate: null,
      image,
    };
  }
  const rotation = rotationOf(picture);
  const quarterTurn = rotation === 90 || rotation === 270;
  const audio = streams.find((s) => s.codec_type === 'audio' && s.codec_name);
  return {
    kind: 'video',
    container,
    width: quarterTurn ? picture.height : picture.width,
    height: quarterTurn ? picture.width : picture.height,
    durationSec: positive(output.format?.duration) ?? positive(picture.duration),
    bitRate: integer(output.format?.bit_rate),
    video: {
      codec: picture.codec_name,
      profile: picture.profile ?? null,
      width: picture.width,
      height: picture.height,
      rotation,
      frameRate: frameRate(picture.avg_frame_rate) ?? frameRate(picture.r_frame_rate),
      bitRate: integer(picture.bit_rate),
      pixelFormat: picture.pix_fmt ?? null,
      colorSpace: picture.color_space ?? null,
      colorTransfer: picture.color_transfer ?? null,
      colorPrimaries: picture.color_primaries ?? null,
    },
    audio: audio
      ? { codec: audio.codec_name!, channels: audio.channels ?? null, sampleRate: integer(audio.sample_rate) }
      : null,
  };
}

/**
 * Rotation as displayed, in quarter turns: the display matrix (side data) of current muxers, or
 * the `rotate` tag of older ones. ffprobe reports the matrix counter-clockwise (-90 for a phone
 * held upright); only whether a quarter turn swaps width and height matters here.
 */
function rotationOf(stream: FfprobeStream): number {
  const fromMatrix = stream.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const degrees = fromMatrix ?? Number(stream.tags?.rotate ?? 0);
  if (!Number.isFinite(degrees)) return 0;
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
}

/** "30000/1001" → 29.97; "0/0" (unknown) → null. */
function frameRate(ratio: string | undefined): number | null {
  const [num, den] = (ratio ?? '').split('/').map(Number);
  if (!num || !den || !Number.isFinite(num / den)) return null;
  return Math.round((num / den) * 1000) / 1000;
}

function positive(text: string | undefined): number | null {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) && n > 0 ? Math.round(n * 1000) / 1000 : null;
}

function integer(text: string | undefined): number | null {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
}
