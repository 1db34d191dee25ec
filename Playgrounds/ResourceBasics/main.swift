// ResourceBasics: services, resources and observers on the stub provider (being written).
print("ResourceBasics: coming with the resource core.")
