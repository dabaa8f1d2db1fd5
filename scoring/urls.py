"""Web pages of the scoring app."""

from django.urls import path

from . import views

app_name = "scoring"

urlpatterns = [
    path("", views.home, name="home"),
    path("calculator/", views.calculator, name="calculator"),
]
