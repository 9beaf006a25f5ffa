import type { Request, Response } from 'express';
import multer, { type StorageEngine } from 'multer';
import { AppError } from '@postbus/contracts';
import type { MeterLimits } from '../ingest/media-meter';
import { stageObject, type StagedObject } from '../ingest/stage-object';
import type { MediaStore } from '../storage/media-store';
import { fromMultipartError } from './errors';

type StagedFile = Express.Multer.File & { staged?: StagedObject };

/** A multer storage engine that streams the part straight into storage through the meter; `staging` collects each part's work. */
function streamingEngine(store: MediaStore, limits: MeterLimits, staging: Promise<unknown>[]): StorageEngine {
  return {
    _handleFile(_req, file, callback) {
      const staged = stageObject(store, file.stream, limits);
      staging.push(staged.catch(() => undefined));
      staged.then((object) => callback(null, { staged: object } as Partial<StagedFile>), callback);
    },
    _removeFile(_req, file, callback) {
      const staged = (file as StagedFile).staged;
      if (!staged) return callback(null);
      store.delete(staged.key).then(() => callback(null), callback);
    },
  };
}

/** Reads the multipart body's `file` part into storage; nothing of it is held whole in memory. */
export function receiveMultipartFile(
  req: Request,
  res: Response,
  store: MediaStore,
  limits: MeterLimits,
): Promise<{ staged: StagedObject; filename: string | null }> {
  const staging: Promise<unknown>[] = [];
  const upload = multer({
    storage: streamingEngine(store, limits, staging),
    limits: { files: 1, fields: 20, parts: 25, fieldSize: 64 * 1024 },
  }).single('file');
  return new Promise((resolve, reject) => {
    upload(req, res, (err: unknown) => {
      // A refused part fails the request at once (its stream errors), while its partial object is
      // still being removed: answer only once that is done, so a refusal leaves nothing behind.
      if (err) return void Promise.all(staging).then(() => reject(fromMultipartError(err)));
      const file: StagedFile | undefined = req.file;
      if (!file?.staged)
        return reject(new AppError('missing_file', 'Send the file as multipart/form-data in the field "file".'));
      resolve({ staged: file.staged, filename: file.originalname ? file.originalname.slice(0, 255) : null });
    });
  });
}
