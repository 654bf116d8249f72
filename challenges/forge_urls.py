from django.urls import path, re_path

from challenges import forge

app_name = "forge"

urlpatterns = [
    path("<str:name>.git/info/refs", forge.info_refs, name="info-refs"),
    path("<str:name>.git/git-upload-pack", forge.upload_pack, name="upload-pack"),
    re_path(r"^.*$", forge.not_found),
]
