/** The codec key the recorded histories are encrypted with: a test key, 32 bytes, not a secret of any site. */
export const RECORDING_CODEC_KEY = 'cmVwbGF5LWZpeHR1cmVzLXRlc3Qta2V5LW5vdC1zZWM=';
