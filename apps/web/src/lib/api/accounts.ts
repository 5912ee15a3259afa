import { useQuery } from '@tanstack/react-query';
import type { IdentityStatus, SubmitAppealInput, UserInfo } from '@zhikaoyun/shared';
import { getData, postData } from '../api-client';
import { accountKeys } from './keys';
import { useSysStore } from '../store';

export const fetchUserInfo = () => getData<UserInfo>('/api/getUserInfo');

/**
 * The signed-in candidate, read fresh and kept in the store as the spec's userInfo: the personal
 * center, and the application's pages that need the photo as it is now (another tab may have
 * uploaded one).
 */
export function useUserInfo() {
  const setUserInfo = useSysStore((s) => s.setUserInfo);
  return useQuery({
    queryKey: accountKeys.userInfo(),
    queryFn: async () => {
      const info = await fetchUserInfo();
      setUserInfo(info);
      return info;
    },
    initialData: () => useSysStore.getState().userInfo ?? undefined,
    staleTime: 0,
  });
}

/** The ID photo, cropped in the browser (lib/photo.ts); answers the userInfo with it. */
export const uploadPhoto = (file: Blob) => {
  const form = new FormData();
  form.append('file', file, 'photo.jpg');
  return postData<UserInfo>('/api/uploadPhoto', form);
};

/** Issue 33: the real-name and face checks of the signed-in candidate. */
export function useIdentityStatus() {
  return useQuery({
    queryKey: [...accountKeys.userInfo(), 'identity'],
    queryFn: () => getData<IdentityStatus>('/api/getIdentityStatus'),
    staleTime: 0,
    // A face check the provider has not answered yet: asked again while the page is open (the
    // server asks the provider on each read), so a result that arrives later shows by itself.
    refetchInterval: (query) => (query.state.data?.face === 'pending' ? 15_000 : false),
  });
}

/** Begins a face check for the exam; the answer is the page to open (the provider's, or the sandbox's). */
export const startFaceVerify = (examId: number) => postData<{ url: string }>('/api/startFaceVerify', { examId });

/** A failed real-name check's way out: the name corrected and checked again. */
export const correctIdentityName = (name: string) => postData<IdentityStatus>('/api/correctIdentityName', { name });

/** Someone else registered my ID number, or the real-name check refuses my true name: ask the office (a call back). */
export const submitAppeal = (input: SubmitAppealInput) => postData<null>('/api/submitAppeal', input);
