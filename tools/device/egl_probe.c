// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Can this machine give OpenGL a context on its NVIDIA GPU without a display?
 * Loads libEGL (glvnd's dispatcher: the vendor comes from its JSON files),
 * lists the EGL devices, and on each creates a desktop OpenGL context with
 * a pbuffer and prints GL_VENDOR, GL_RENDERER and GL_VERSION. Exit 0 when
 * some device gave a context, 1 otherwise; every step says what failed.
 *
 *   egl-probe [libEGL path]      (default libEGL.so.1) */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
#include <stdio.h>

#define GL_VENDOR 0x1F00
#define GL_RENDERER 0x1F01
#define GL_VERSION 0x1F02

typedef const unsigned char *(*get_string_fn)(unsigned);

int main(int argc, char **argv) {
  const char *lib = argc > 1 ? argv[1] : "libEGL.so.1";
  void *egl = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
  if (!egl) {
    printf("egl-probe: cannot load %s: %s\n", lib, dlerror());
    return 1;
  }
  PFNEGLGETPROCADDRESSPROC get_proc = (PFNEGLGETPROCADDRESSPROC)dlsym(egl, "eglGetProcAddress");
  if (!get_proc) {
    printf("egl-probe: %s has no eglGetProcAddress\n", lib);
    return 1;
  }
#define LOAD(type, name) type name = (type)get_proc(#name)
  LOAD(PFNEGLQUERYDEVICESEXTPROC, eglQueryDevicesEXT);
  LOAD(PFNEGLQUERYDEVICESTRINGEXTPROC, eglQueryDeviceStringEXT);
  LOAD(PFNEGLGETPLATFORMDISPLAYEXTPROC, eglGetPlatformDisplayEXT);
  LOAD(PFNEGLINITIALIZEPROC, eglInitialize);
  LOAD(PFNEGLQUERYSTRINGPROC, eglQueryString);
  LOAD(PFNEGLCHOOSECONFIGPROC, eglChooseConfig);
  LOAD(PFNEGLBINDAPIPROC, eglBindAPI);
  LOAD(PFNEGLCREATECONTEXTPROC, eglCreateContext);
  LOAD(PFNEGLCREATEPBUFFERSURFACEPROC, eglCreatePbufferSurface);
  LOAD(PFNEGLMAKECURRENTPROC, eglMakeCurrent);
  LOAD(PFNEGLGETERRORPROC, eglGetError);
  LOAD(PFNEGLTERMINATEPROC, eglTerminate);
  get_string_fn glGetString = (get_string_fn)get_proc("glGetString");
  if (!eglQueryDevicesEXT || !eglGetPlatformDisplayEXT || !eglInitialize || !glGetString) {
    printf("egl-probe: %s lacks EGL_EXT_device_enumeration / platform_device / glGetString\n", lib);
    return 1;
  }
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!eglQueryDevicesEXT(16, devices, &count)) {
    printf("egl-probe: eglQueryDevicesEXT failed (0x%x)\n", eglGetError());
    return 1;
  }
  printf("egl-probe: %s: %d EGL devices\n", lib, count);
  int ok = 0;
  for (int d = 0; d < count; ++d) {
    const char *ext = eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(devices[d], EGL_EXTENSIONS) : NULL;
    printf("device %d: extensions %s\n", d, ext ? ext : "(none)");
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[d], NULL);
    EGLint major = 0, minor = 0;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
      printf("  no display (0x%x)\n", eglGetError());
      continue;
    }
    printf("  EGL %d.%d, vendor %s\n", major, minor, eglQueryString(dpy, EGL_VENDOR));
    const EGLint attrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                            EGL_DEPTH_SIZE, 24, EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, attrs, &config, 1, &n) || n < 1) {
      printf("  no pbuffer config for desktop OpenGL (0x%x)\n", eglGetError());
      eglTerminate(dpy);
      continue;
    }
    const EGLint pbuffer[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
    EGLSurface surface = eglCreatePbufferSurface(dpy, config, pbuffer);
    eglBindAPI(EGL_OPENGL_API);
    const EGLint context_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                    EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT, EGL_NONE};
    EGLContext context = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attrs);
    if (surface == EGL_NO_SURFACE || context == EGL_NO_CONTEXT ||
        !eglMakeCurrent(dpy, surface, surface, context)) {
      printf("  no context (0x%x)\n", eglGetError());
      eglTerminate(dpy);
      continue;
    }
    printf("  GL_VENDOR %s\n  GL_RENDERER %s\n  GL_VERSION %s\n", glGetString(GL_VENDOR),
           glGetString(GL_RENDERER), glGetString(GL_VERSION));
    ok = 1;
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
  }
  return ok ? 0 : 1;
}
