import { CameraOutlined, LockOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { PHOTO_RULES, PHOTO_SPEC, type UserInfo } from '@zhikaoyun/shared';
import { Suspense, useRef, useState } from 'react';
import { lazyScoped } from '../lib/lazy-scoped';
import { deferredFeedback } from '../lib/feedback';
import { uploadPhoto } from '../lib/api/accounts';
import { accountKeys, applicationKeys } from '../lib/api/keys';
import { decodePhoto, UnreadablePhoto } from '../lib/photo';
import { useSysStore } from '../lib/store';
import { buttonClass } from './plain/Button';

// Built on antd (Modal, Slider): loaded with antd's scope when a photo is chosen.
const PhotoCropDialog = lazyScoped(() => import('./PhotoCropDialog').then((m) => m.default));

/**
 * The candidate's ID photo (证件照), as part of the application: the office's rules, the photo
 * at its ratio, and a way to take or choose a new one (any phone photo, HEIC too: the browser
 * crops and reduces it before upload). While an application is under review or approved, the
 * photo is the one being judged, and `locked` says why it cannot change. `pending`: the
 * candidate's photo is not known yet (the personal center's server HTML): the field at its size,
 * the rules shown, the frame and its button waiting.
 */
export function IdPhotoField({
  photo,
  locked,
  missing = false,
  pending = false,
}: {
  photo: string;
  locked: string | null;
  missing?: boolean;
  pending?: boolean;
}) {
  // Plain (no antd runtime): the personal center shows it on its first load.
  const { message } = deferredFeedback;
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const [image, setImage] = useState<ImageBitmap | null>(null);

  async function choose(file: File | undefined) {
    if (!file) return;
    setReading(true);
    try {
      setImage(await decodePhoto(file));
    } catch (err) {
      void message.error(err instanceof UnreadablePhoto ? err.message : '无法读取该照片，请重新选择');
    } finally {
      setReading(false);
      if (input.current) input.current.value = '';
    }
  }

  async function upload(jpeg: Blob) {
    let info: UserInfo;
    try {
      info = await uploadPhoto(jpeg);
    } catch {
      // Shown by the client; the dialog stays open to try again.
      return;
    }
    setImage(null);
    void message.success('照片已上传');
    useSysStore.getState().setUserInfo(info);
    client.setQueryData(accountKeys.userInfo(), info);
    void client.invalidateQueries({ queryKey: applicationKeys.mine() });
  }

  return (
    <section
      className={`id-photo${missing && !photo ? ' is-missing' : ''}${pending ? ' is-pending' : ''}`}
      aria-label="证件照"
      aria-busy={pending || undefined}
    >
      <div className="id-photo__frame" style={{ aspectRatio: `${PHOTO_SPEC.width} / ${PHOTO_SPEC.height}` }}>
        {photo ? <img src={photo} alt="证件照" /> : !pending && <span className="id-photo__empty">未上传</span>}
      </div>
      <div className="id-photo__side">
        <p className="id-photo__title">
          <span className="id-photo__required" aria-hidden>
            *
          </span>
          证件照
        </p>
        <ul className="id-photo__rules">
          {PHOTO_RULES.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
        {locked ? (
          <p className="id-photo__locked">
            <LockOutlined aria-hidden /> {locked}
          </p>
        ) : (
          <>
            <input
              ref={input}
              type="file"
              accept="image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"
              hidden
              aria-label="选择证件照"
              onChange={(e) => void choose(e.target.files?.[0])}
            />
            <button
              type="button"
              className={buttonClass({ loading: reading })}
              disabled={pending}
              aria-busy={reading || undefined}
              onClick={() => input.current?.click()}
            >
              <CameraOutlined aria-hidden />
              <span>{photo ? '更换证件照' : '上传证件照'}</span>
            </button>
          </>
        )}
        {missing && !photo && <p className="id-photo__error">请上传证件照</p>}
      </div>
      {image && (
        <Suspense fallback={null}>
          <PhotoCropDialog image={image} onCancel={() => setImage(null)} onCropped={upload} />
        </Suspense>
      )}
    </section>
  );
}
