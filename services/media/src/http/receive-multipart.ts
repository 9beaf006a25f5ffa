import type { Request, Response } from 'express';
import multer, { type StorageEngine } from 'multer';
import { AppError } from '@postbus/contracts';
import type { MeterLimits } from '../ingest/media-meter';
import { stageObject, type StagedObject } from '../ingest/stage-object';
import type { MediaStore } from '../storage/media-store';
import { fromMultipartError } from './errors';

type StagedFile = Express.Multer.File & { staged?: StagedObject };

/** A multer storage engine that streams the part straight into storage through the meter. */
function streamingEngine(store: MediaStore, limits: MeterLimits): StorageEngine {
  return {
    _handleFile(_req, file, callback) {
      stageObject(store, file.stream, limits).then((staged) => callback(null, { staged } as Partial<StagedFile>), callback);
    },
    _removeFile(_req, file, callback) {
      const staged = (file as StagedFile).staged;
      if (!staged) return callback(null);
      store.delete(staged.key).then(() => callback(null), callback);
    },
  };
}

/** Reads the multipart body's `file` part into storage; nothing of it is held whole in memory. */
export function receiveMultipartFile(req: Request, res: Response, store: MediaStore, limits: MeterLimits): Promise<{ staged: StagedObject; filename: string | null }> {
  const upload = multer({ storage: streamingEngine(store, limits), limits: { files: 1, fields: 20, parts: 25, fieldSize: 64 * 1024 } }).single('file');
  return new Promise((resolve, reject) => {
    upload(req, res, (err: unknown) => {
      if (err) return reject(fromMultipartError(err));
      const file = req.file as StagedFile | undefined;
      if (!file?.staged) return reject(new AppError('missing_file', 'Send the file as multipart/form-data in the field "file".'));
      resolve({ staged: file.staged, filename: file.originalname ? file.originalname.slice(0, 255) : null });
    });
  });
}
